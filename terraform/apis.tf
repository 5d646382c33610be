# The APIs this deployment uses. disable_on_destroy = false: tearing kikimimi down must not switch off
# an API another workload in the project may use.

locals {
  apis = toset(concat(
    [
      "artifactregistry.googleapis.com",     # function images
      "cloudbuild.googleapis.com",           # function builds
      "cloudfunctions.googleapis.com",       # the functions
      "cloudresourcemanager.googleapis.com", # project number lookup, IAM
      "cloudscheduler.googleapis.com",       # memory jobs
      "cloudtasks.googleapis.com",           # judge / reply / memory queues
      "compute.googleapis.com",              # gateway VM, VPC, Cloud NAT
      "eventarc.googleapis.com",             # Pub/Sub → ingest trigger
      "firestore.googleapis.com",            # buffer, interventions, memory
      "iam.googleapis.com",                  # service accounts
      "logging.googleapis.com",              # logs and log-based metrics
      "monitoring.googleapis.com",           # alerts and dashboard
      "pubsub.googleapis.com",               # message topic, dead letters
      "run.googleapis.com",                  # gen2 functions run on Cloud Run
      "secretmanager.googleapis.com",        # Discord token, Gemini key
      "storage.googleapis.com",              # source bundle
    ],
    var.use_vertex_ai ? ["aiplatform.googleapis.com"] : [],
  ))
}

resource "google_project_service" "apis" {
  for_each = local.apis

  project                    = var.project_id
  service                    = each.value
  disable_on_destroy         = false
  disable_dependent_services = false
}

# ------------------------------------------------------------------------------------------ service agents
# Enabling an API does not create its Google-managed service agent at once: on a fresh project the
# Eventarc trigger is refused ("Permission denied while using the Eventarc Service Agent", known provider
# issue hashicorp/terraform-provider-google#14584) and IAM grants to the Pub/Sub agent fail while it does
# not exist. So the agents are created explicitly (Service Usage generateServiceIdentity, beta provider
# only), given the role Google would have granted them (an agent created on request gets none), and
# what needs them waits until IAM has propagated (time_sleep, as the provider documentation suggests).
locals {
  service_agents = {
    eventarc = { service = "eventarc.googleapis.com", role = "roles/eventarc.serviceAgent" }
    pubsub   = { service = "pubsub.googleapis.com", role = "roles/pubsub.serviceAgent" }
  }
}

resource "google_project_service_identity" "agents" {
  for_each = local.service_agents
  provider = google-beta

  project = var.project_id
  service = each.value.service

  depends_on = [google_project_service.apis]
}

resource "google_project_iam_member" "service_agents" {
  #checkov:skip=CKV_GCP_49:The members are Google-managed service agents receiving the agent roles Google itself grants them (the Pub/Sub agent mints push tokens by design); no user-managed account gains impersonation.
  for_each = local.service_agents

  project = var.project_id
  role    = each.value.role
  member  = google_project_service_identity.agents[each.key].member
}

# Waits once, on the first apply (and when an agent is re-created); later applies do not sleep.
resource "time_sleep" "service_agents" {
  create_duration = "${var.service_agent_wait_seconds}s"

  triggers = { for name, agent in google_project_service_identity.agents : name => agent.email }

  depends_on = [google_project_iam_member.service_agents]
}
