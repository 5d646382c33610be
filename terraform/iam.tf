# Identities and permissions. One service account per function, plus one each for the Cloud Tasks
# invoker, Cloud Scheduler, the Eventarc trigger, the gateway VM and the function builds.
#
# Every grant is one row of local.grants: who (sa), which role, on what (on + target). A role is bound
# on the narrowest resource that exists; project-level rows carry `why`. tests/terraform checks each
# account's roles against an allow-list, so a new grant is a deliberate change in two places.

locals {
  service_accounts = merge(
    { for name, fn in local.functions : name => "Runtime of the ${name} function" },
    {
      "tasks-invoker" = "OIDC identity of Cloud Tasks calling judge, reply and the memory functions"
      "scheduler"     = "OIDC identity of Cloud Scheduler calling the maintain function"
      "eventarc"      = "Identity of the Eventarc trigger delivering Pub/Sub messages to ingest"
      "gateway"       = "Discord gateway VM: publishes messages to the topic, saves channel settings"
      "build"         = "Cloud Build of the functions' images"
    },
  )

  llm_functions = [for name, fn in local.functions : name if fn.llm]

  # Functions Cloud Tasks calls (judge/reply queues and the memory queue): the invoker may call these.
  task_targets = ["judge", "reply", "summarize", "reflect", "forget"]

  grants = concat(
    # -------------------------------------------------------------- every function
    [for name, fn in local.functions : {
      sa     = name
      role   = "roles/datastore.user"
      on     = "project"
      target = ""
      when   = true
      why    = "Firestore has no IAM resource narrower than the project (the buffer and memory live in it)"
    }],
    # LLM: the API key secret, or Vertex AI with the function's own identity.
    [for name in local.llm_functions : {
      sa     = name
      role   = "roles/secretmanager.secretAccessor"
      on     = "secret"
      target = "gemini_api_key"
      when   = !var.use_vertex_ai
      why    = ""
    }],
    [for name in local.llm_functions : {
      sa     = name
      role   = "roles/aiplatform.user"
      on     = "project"
      target = ""
      when   = var.use_vertex_ai
      why    = "Vertex AI has no per-resource IAM for Gemini publisher models"
    }],
    # -------------------------------------------------------------- ingest: schedule and cancel
    # judge/reply after each message; summarize/reflect through the memory hook (which cancels too).
    flatten([for queue in ["judge", "reply", "memory"] : [
      { sa = "ingest", role = "roles/cloudtasks.enqueuer", on = "queue", target = queue, when = true, why = "" },
      { sa = "ingest", role = "roles/cloudtasks.taskDeleter", on = "queue", target = queue, when = true, why = "" },
    ]]),
    [
      # Creating a task with an OIDC token of the invoker needs actAs on that one account.
      { sa = "ingest", role = "roles/iam.serviceAccountUser", on = "service_account", target = "tasks-invoker", when = true, why = "" },
    ],
    # -------------------------------------------------------------- judge: schedule replies
    [
      { sa = "judge", role = "roles/cloudtasks.enqueuer", on = "queue", target = "reply", when = true, why = "" },
      { sa = "judge", role = "roles/iam.serviceAccountUser", on = "service_account", target = "tasks-invoker", when = true, why = "" },
    ],
    # -------------------------------------------------------------- reply: post to Discord
    [
      { sa = "reply", role = "roles/secretmanager.secretAccessor", on = "secret", target = "discord_token", when = true, why = "" },
    ],
    # -------------------------------------------------------------- summarize: the next summary, reflections
    [
      { sa = "summarize", role = "roles/cloudtasks.enqueuer", on = "queue", target = "memory", when = true, why = "" },
      { sa = "summarize", role = "roles/cloudtasks.taskDeleter", on = "queue", target = "memory", when = true, why = "" },
      { sa = "summarize", role = "roles/iam.serviceAccountUser", on = "service_account", target = "tasks-invoker", when = true, why = "" },
    ],
    # -------------------------------------------------------------- forget: a summary rebuilt without the message
    [
      { sa = "forget", role = "roles/cloudtasks.enqueuer", on = "queue", target = "memory", when = true, why = "" },
      { sa = "forget", role = "roles/iam.serviceAccountUser", on = "service_account", target = "tasks-invoker", when = true, why = "" },
    ],
    # -------------------------------------------------------------- callers of the functions
    [for name in local.task_targets :
      { sa = "tasks-invoker", role = "roles/run.invoker", on = "service", target = name, when = true, why = "" }
    ],
    [for name in distinct([for job in local.scheduler_jobs : job.function]) :
      { sa = "scheduler", role = "roles/run.invoker", on = "service", target = name, when = true, why = "" }
    ],
    [for name, fn in local.functions :
      { sa = "eventarc", role = "roles/run.invoker", on = "service", target = name, when = true, why = "" }
      if fn.trigger == "pubsub"
    ],
    # -------------------------------------------------------------- gateway VM
    [
      { sa = "gateway", role = "roles/pubsub.publisher", on = "topic", target = "messages", when = var.gateway_enabled, why = "" },
      { sa = "gateway", role = "roles/secretmanager.secretAccessor", on = "secret", target = "discord_token", when = var.gateway_enabled, why = "" },
      # It installs itself from the source bundle at boot.
      { sa = "gateway", role = "roles/storage.objectViewer", on = "bucket", target = "source", when = var.gateway_enabled, why = "" },
      {
        sa     = "gateway"
        role   = "roles/datastore.user"
        on     = "project"
        target = ""
        when   = var.gateway_enabled
        why    = "Slash commands save channel settings in Firestore, which has no IAM narrower than the project"
      },
      {
        sa     = "gateway"
        role   = "roles/logging.logWriter"
        on     = "project"
        target = ""
        when   = var.gateway_enabled
        why    = "Log entries are written to the project; Cloud Logging has no narrower writer binding"
      },
      {
        sa     = "gateway"
        role   = "roles/monitoring.metricWriter"
        on     = "project"
        target = ""
        when   = var.gateway_enabled
        why    = "Metrics are written to the project; Cloud Monitoring has no narrower writer binding"
      },
    ],
    # -------------------------------------------------------------- function builds
    [
      { sa = "build", role = "roles/storage.objectViewer", on = "bucket", target = "source", when = true, why = "" },
      { sa = "build", role = "roles/artifactregistry.writer", on = "repository", target = "functions", when = true, why = "" },
      {
        sa     = "build"
        role   = "roles/logging.logWriter"
        on     = "project"
        target = ""
        when   = true
        why    = "Cloud Build writes build logs to the project; Cloud Logging has no narrower writer binding"
      },
    ],
  )

  active_grants = { for g in local.grants : "${g.sa}|${g.role}|${g.on}|${g.target}" => g if g.when }
  grants_by_on  = { for on in distinct([for g in values(local.active_grants) : g.on]) : on => { for k, g in local.active_grants : k => g if g.on == on } }
}

resource "google_service_account" "sa" {
  for_each = local.service_accounts

  project      = var.project_id
  account_id   = "kikimimi-${each.key}"
  display_name = "kikimimi ${each.key}"
  description  = each.value

  depends_on = [google_project_service.apis]
}

# Project-level: only the rows whose resource has no narrower IAM (each row says why).
resource "google_project_iam_member" "grants" {
  for_each = lookup(local.grants_by_on, "project", {})

  project = var.project_id
  role    = each.value.role
  member  = google_service_account.sa[each.value.sa].member
}

resource "google_cloud_tasks_queue_iam_member" "grants" {
  for_each = lookup(local.grants_by_on, "queue", {})

  project  = var.project_id
  location = google_cloud_tasks_queue.queues[each.value.target].location
  name     = google_cloud_tasks_queue.queues[each.value.target].name
  role     = each.value.role
  member   = google_service_account.sa[each.value.sa].member
}

resource "google_secret_manager_secret_iam_member" "grants" {
  for_each = lookup(local.grants_by_on, "secret", {})

  project   = var.project_id
  secret_id = google_secret_manager_secret.secrets[each.value.target].secret_id
  role      = each.value.role
  member    = google_service_account.sa[each.value.sa].member
}

resource "google_service_account_iam_member" "grants" {
  for_each = lookup(local.grants_by_on, "service_account", {})

  service_account_id = google_service_account.sa[each.value.target].name
  role               = each.value.role
  member             = google_service_account.sa[each.value.sa].member
}

# roles/run.invoker on one Cloud Run service (a gen2 function's service has the function's name).
resource "google_cloud_run_v2_service_iam_member" "grants" {
  for_each = lookup(local.grants_by_on, "service", {})

  project  = var.project_id
  location = var.region
  name     = google_cloudfunctions2_function.fn[each.value.target].name
  role     = each.value.role
  member   = google_service_account.sa[each.value.sa].member
}

resource "google_pubsub_topic_iam_member" "grants" {
  for_each = lookup(local.grants_by_on, "topic", {})

  project = var.project_id
  topic   = { messages = google_pubsub_topic.messages.name }[each.value.target]
  role    = each.value.role
  member  = google_service_account.sa[each.value.sa].member
}

resource "google_storage_bucket_iam_member" "grants" {
  for_each = lookup(local.grants_by_on, "bucket", {})

  bucket = { source = google_storage_bucket.source.name }[each.value.target]
  role   = each.value.role
  member = google_service_account.sa[each.value.sa].member
}

resource "google_artifact_registry_repository_iam_member" "grants" {
  for_each = lookup(local.grants_by_on, "repository", {})

  project    = var.project_id
  location   = google_artifact_registry_repository.functions.location
  repository = { functions = google_artifact_registry_repository.functions.name }[each.value.target]
  role       = each.value.role
  member     = google_service_account.sa[each.value.sa].member
}

# Google-managed service agent: Pub/Sub mints the OIDC token of the Eventarc trigger's account when it
# pushes to ingest (needed explicitly in projects created before April 2021). On that account only.
resource "google_service_account_iam_member" "pubsub_token_creator" {
  service_account_id = google_service_account.sa["eventarc"].name
  role               = "roles/iam.serviceAccountTokenCreator"
  member             = local.pubsub_service_agent

  depends_on = [time_sleep.service_agents]
}
