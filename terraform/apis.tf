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
