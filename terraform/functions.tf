# Cloud Functions (gen2): one per entry point of functions/main.py, all built from one source bundle.

locals {
  # One row per entry point of functions/main.py (tests/terraform checks both directions).
  #   trigger  = "pubsub": a CloudEvent function fed by the Eventarc trigger in pubsub.tf;
  #              "http":   called by Cloud Tasks (tasks.tf) or Cloud Scheduler (scheduler.tf) with OIDC.
  #   secrets  = secret environment variables it may get (GEMINI_API_KEY is dropped with Vertex AI).
  #   llm      = calls Gemini: gets the API key secret, or roles/aiplatform.user with Vertex AI.
  #   concurrency = requests one instance serves at once (max_instance_request_concurrency); above 1 a
  #              gen2 function needs a whole vCPU (cpu). Ingest waits on Firestore and Cloud Tasks RPCs
  #              for nearly all of a request, so one instance serves eight (a burst needs an eighth of
  #              the instances, each request its own thread: the use cases keep no per-request state,
  #              and the per-instance caches — settings, a place's lines — are thread-safe). The others stay
  #              at one request per instance on a third of a vCPU: their volume is a fraction of
  #              ingest's, and a whole vCPU would cost three times as much per second for requests
  #              that seldom overlap (see docs/cost.md).
  functions = {
    ingest = {
      description   = "Pub/Sub (Eventarc) → buffer the message, schedule or cancel judge/reply tasks."
      trigger       = "pubsub"
      memory        = "512Mi"
      timeout       = 60
      max_instances = 10
      secrets       = []
      llm           = false
      concurrency   = 8
      cpu           = "1"
    }
    judge = {
      description   = "Cloud Tasks → decide whether, when and how to speak."
      trigger       = "http"
      memory        = "512Mi"
      timeout       = 120
      max_instances = 10
      secrets       = ["GEMINI_API_KEY"]
      llm           = true
      concurrency   = 1
      cpu           = null
    }
    reply = {
      description   = "Cloud Tasks → write and deliver the reply or reaction."
      trigger       = "http"
      memory        = "512Mi"
      timeout       = 120
      max_instances = 5
      secrets       = ["DISCORD_TOKEN", "GEMINI_API_KEY"]
      llm           = true
      concurrency   = 1
      cpu           = null
    }
    summarize = {
      description   = "Memory queue → channel summaries; schedules reflections."
      trigger       = "http"
      memory        = "512Mi"
      timeout       = 300
      max_instances = 3
      secrets       = ["GEMINI_API_KEY"]
      llm           = true
      concurrency   = 1
      cpu           = null
    }
    forget = {
      description   = "Memory queue → a deleted or edited message leaves the summaries, facts and profiles it fed."
      trigger       = "http"
      memory        = "512Mi"
      timeout       = 300
      max_instances = 3
      secrets       = []
      llm           = false
      concurrency   = 1
      cpu           = null
    }
    reflect = {
      description   = "Memory queue → reflections and facts from recent conversation."
      trigger       = "http"
      memory        = "512Mi"
      timeout       = 300
      max_instances = 3
      secrets       = ["GEMINI_API_KEY"]
      llm           = true
      concurrency   = 1
      cpu           = null
    }
    maintain = {
      description   = "Cloud Scheduler → guild memory (hourly) and fact maintenance (daily)."
      trigger       = "http"
      memory        = "512Mi"
      timeout       = 540
      max_instances = 1
      secrets       = ["GEMINI_API_KEY"]
      llm           = true
      concurrency   = 1
      cpu           = null
    }
  }

  function_names = { for name, _ in local.functions : name => "kikimimi-${name}" }

  # Effective timeout of each function; the Cloud Tasks dispatch deadline of the kind that calls it is
  # the same number (*_DISPATCH_DEADLINE_SECONDS below), so a slow run is never dispatched twice.
  function_timeouts = {
    for name, fn in local.functions :
    name => coalesce(try(var.function_overrides[name].timeout_seconds, null), fn.timeout)
  }

  # Cloud Run's deterministic URL of each function's service. Computed rather than read from the
  # resources: JUDGE_URL/REPLY_URL go into the functions themselves (judge needs its own URL), which a
  # resource attribute cannot do without a cycle. The check block below compares it with the service.
  function_urls = {
    for name, service in local.function_names :
    name => "https://${service}-${data.google_project.this.number}.${var.region}.run.app"
  }

  # Every function gets the same environment: the names are exactly the env names of Settings
  # (functions/kikimimi/settings.py). Secrets are never here: see secret_environment_variables.
  # Empty values are left out (Settings reads "" as unset anyway; the API would drop them and diff).
  function_env = { for name, value in local.function_settings : name => value if value != "" }

  function_settings = {
    # Where it runs
    GOOGLE_CLOUD_PROJECT = var.project_id
    KIKIMIMI_REGION      = var.region
    KIKIMIMI_MODE        = "gcp"
    FIRESTORE_DATABASE   = var.firestore_database
    PUBSUB_TOPIC         = google_pubsub_topic.messages.name
    DISCORD_BACKEND      = "rest"
    # Persona
    BOT_NAME             = var.bot_name
    BOT_ALIASES          = join(",", var.bot_aliases)
    BOT_USER_ID          = var.discord_application_id
    BOT_LANGUAGE         = var.bot_language
    BOT_PERSONA          = var.bot_persona
    ENABLED_CHANNELS     = join(",", var.enabled_channels)
    BOT_KEYWORDS         = join(",", var.bot_keywords)
    BOT_KNOWLEDGE_TOPICS = join(",", var.bot_knowledge_topics)
    ALLOWED_REACTIONS    = join(",", var.allowed_reactions)
    WEBHOOKS_AS_HUMANS   = tostring(var.webhooks_as_humans)
    # Timings
    MIN_MESSAGES                = tostring(var.min_messages)
    JUDGE_TIMING                = var.judge_timing
    PACE_MULTIPLIER             = tostring(var.pace_multiplier)
    QUESTION_WATCH_SECONDS      = tostring(var.question_watch_seconds)
    LLM_JUDGMENTS_PER_HOUR      = tostring(var.llm_judgments_per_hour)
    MIN_WAIT_SECONDS            = tostring(var.min_wait_seconds)
    JITTER_RATIO                = tostring(var.jitter_ratio)
    BUFFER_TTL_MINUTES          = tostring(var.buffer_ttl_minutes)
    TOMBSTONE_DAYS              = tostring(var.tombstone_days)
    ADDRESSED_MAX_AGE_SECONDS   = tostring(var.addressed_max_age_seconds)
    REPLY_MAX_LATE_SECONDS      = tostring(var.reply_max_late_seconds)
    FORGET_REBUILD_SECONDS      = tostring(var.forget_rebuild_seconds)
    CONTEXT_MESSAGES            = tostring(var.context_messages)
    REPLY_DELAY_MIN_SECONDS     = tostring(var.reply_delay_seconds.min)
    REPLY_DELAY_MAX_SECONDS     = tostring(var.reply_delay_seconds.max)
    REPLY_DELAY_DEFAULT_SECONDS = tostring(var.reply_delay_seconds.default)
    UNANSWERED_AFTER_SECONDS    = tostring(var.unanswered_after_seconds)
    # Limits on being addressed, and the guild's daily LLM budget
    ADDRESSED_PER_USER_PER_MINUTE    = tostring(var.addressed_per_user_per_minute)
    ADDRESSED_PER_CHANNEL_PER_MINUTE = tostring(var.addressed_per_channel_per_minute)
    ADDRESSED_CAP_REACTION           = var.addressed_cap_reaction
    LLM_CALLS_PER_GUILD_PER_DAY      = tostring(var.llm_calls_per_guild_per_day)
    # Judgment
    JUDGE_HIGH_THRESHOLD   = tostring(var.judge_thresholds.high)
    JUDGE_LOW_THRESHOLD    = tostring(var.judge_thresholds.low)
    JUDGE_RULES_THRESHOLD  = tostring(var.judge_thresholds.rules)
    JUDGE_MIN_CONFIDENCE   = tostring(var.judge_thresholds.min_confidence)
    RULE_WEIGHTS           = jsonencode(var.rule_weights)
    JUDGMENT_CACHE_SECONDS = tostring(var.judgment_cache_seconds)

    # How far a channel's /kikimimi chattiness (quiet / lively) moves the thresholds and the waits
    CHATTINESS_THRESHOLD_STEP = tostring(var.chattiness.threshold_step)
    CHATTINESS_WAIT_FACTOR    = tostring(var.chattiness.wait_factor)
    # How far people's response to its unprompted posts may hold the bot back (docs/how-it-works.md)
    TALKATIVENESS_FLOOR = tostring(var.talkativeness_floor)

    # LLM
    LLM_BACKEND            = var.llm_backend
    JUDGE_MODEL            = var.judge_model
    REPLY_MODEL            = var.reply_model
    USE_VERTEX_AI          = tostring(var.use_vertex_ai)
    LLM_TIMEOUT_SECONDS    = tostring(var.llm_timeout_seconds)
    REPLY_MAX_TOKENS       = tostring(var.reply_max_tokens)
    SHORT_ACK_MAX_TOKENS   = tostring(var.short_ack_max_tokens)
    WRITER_THINKING_BUDGET = tostring(var.writer_thinking_budget)
    JUDGE_MAX_TOKENS       = tostring(var.judge_max_tokens)
    JUDGE_THINKING_BUDGET  = tostring(var.judge_thinking_budget)
    REPLY_MAX_MESSAGES     = tostring(var.reply_max_messages)
    LINK_ALLOWLIST         = join(",", var.link_allowlist)
    # Cloud Tasks: tasks call the functions' URLs with an OIDC token of the invoker account.
    TASKS_LOCATION   = google_cloud_tasks_queue.queues["judge"].location
    JUDGE_QUEUE      = google_cloud_tasks_queue.queues["judge"].name
    REPLY_QUEUE      = google_cloud_tasks_queue.queues["reply"].name
    JUDGE_URL        = local.function_urls["judge"]
    REPLY_URL        = local.function_urls["reply"]
    TASKS_INVOKER_SA = google_service_account.sa["tasks-invoker"].email
    # Each task kind waits as long as the function it calls may run (tests/terraform checks the pairs).
    JUDGE_DISPATCH_DEADLINE_SECONDS     = tostring(local.function_timeouts["judge"])
    REPLY_DISPATCH_DEADLINE_SECONDS     = tostring(local.function_timeouts["reply"])
    SUMMARIZE_DISPATCH_DEADLINE_SECONDS = tostring(local.function_timeouts["summarize"])
    REFLECT_DISPATCH_DEADLINE_SECONDS   = tostring(local.function_timeouts["reflect"])
    FORGET_DISPATCH_DEADLINE_SECONDS    = tostring(local.function_timeouts["forget"])
    # Memory: summarize/reflect/forget tasks on the memory queue, maintain from Cloud Scheduler.
    MEMORY_ENABLED          = tostring(var.memory_enabled)
    MEMORY_QUEUE            = google_cloud_tasks_queue.queues["memory"].name
    SUMMARIZE_URL           = local.function_urls["summarize"]
    REFLECT_URL             = local.function_urls["reflect"]
    FORGET_URL              = local.function_urls["forget"]
    MAINTAIN_URL            = local.function_urls["maintain"]
    MEMORY_MODEL            = var.memory_model
    MEMORY_THINKING_BUDGET  = tostring(var.memory_thinking_budget)
    SUMMARY_MAX_TOKENS      = tostring(var.summary_max_tokens)
    REFLECT_MAX_TOKENS      = tostring(var.reflect_max_tokens)
    GUILD_MEMORY_MAX_TOKENS = tostring(var.guild_memory_max_tokens)
    EMBEDDING_BACKEND       = var.embedding_backend
    EMBEDDING_MODEL         = var.embedding_model
    EMBEDDING_DIMENSION     = tostring(var.facts_embedding_dimension)
    FACT_HALF_LIFE_DAYS     = tostring(var.fact_lifetime.half_life_days)
    FACT_MIN_SCORE          = tostring(var.fact_lifetime.min_score)
    PROACTIVE_ENABLED       = tostring(var.proactive_enabled)
    # Off by default: grounded prompts are billed apart, and Google's terms ask for search suggestions
    # shown beside a grounded answer (docs/how-it-works.md); a server's admins may turn it on for theirs.
    GROUNDING = tostring(var.grounding)
  }

  # Secret env name → Secret Manager secret key (secrets.tf); GEMINI_API_KEY only with an API key.
  secret_env = merge(
    { DISCORD_TOKEN = "discord_token" },
    var.use_vertex_ai ? {} : { GEMINI_API_KEY = "gemini_api_key" },
  )

  # ------------------------------------------------------------------ source bundle
  # Zip root: functions/ as a whole (main.py, requirements.txt, kikimimi/ with its data; functions/ holds
  # only what is deployed: the CLI, the local stack and the twins live in dev/), prompts/ (repository
  # root) and gateway_vm/ (the gateway VM installs from the same bundle). Bytecode caches stay out.
  repo_root     = abspath("${path.module}/..")
  functions_dir = "${local.repo_root}/functions"

  source_files = merge(
    { for f in fileset(local.functions_dir, "**") : f => "${local.functions_dir}/${f}" if !strcontains(f, "__pycache__/") },
    { for f in fileset("${local.repo_root}/prompts", "*.j2") : "prompts/${f}" => "${local.repo_root}/prompts/${f}" },
    { for f in fileset("${local.repo_root}/gateway_vm", "**/*.{py,service,sh,txt}") : "gateway_vm/${f}" => "${local.repo_root}/gateway_vm/${f}" },
  )

  # Content hash over names and bytes: independent of zip timestamps, so an unchanged tree never
  # redeploys and any change does.
  source_hash = sha256(join("\n", [for name in sort(keys(local.source_files)) : "${name} ${filesha256(local.source_files[name])}"]))
  # No "/" in the name: the gateway's startup script fetches it through the JSON API unescaped.
  source_object = "kikimimi-source-${substr(local.source_hash, 0, 20)}.zip"
}

data "archive_file" "source" {
  type             = "zip"
  output_path      = "${path.module}/.terraform/build/kikimimi-source.zip"
  output_file_mode = "0644"

  dynamic "source" {
    for_each = local.source_files
    content {
      filename = source.key
      content  = file(source.value)
    }
  }
}

# Source bundles (functions and gateway). Private, uniform access, no public access possible.
resource "google_storage_bucket" "source" {
  #checkov:skip=CKV_GCP_62:Usage logs of a private deployment bucket add little; reads are audited with Data Access audit logs when enabled.
  name                        = "${var.project_id}-kikimimi-source"
  project                     = var.project_id
  location                    = var.region
  uniform_bucket_level_access = true
  public_access_prevention    = "enforced"
  force_destroy               = false

  versioning {
    enabled = true
  }

  # Objects are content-named, so old versions only pile up when a name is re-uploaded.
  lifecycle_rule {
    condition {
      num_newer_versions = 3
      with_state         = "ARCHIVED"
    }
    action {
      type = "Delete"
    }
  }

  depends_on = [google_project_service.apis]
}

resource "google_storage_bucket_object" "source" {
  name         = local.source_object
  bucket       = google_storage_bucket.source.name
  source       = data.archive_file.source.output_path
  content_type = "application/zip"
}

# Images built from the bundle, with a cleanup policy (the default gcf-artifacts repo has none).
resource "google_artifact_registry_repository" "functions" {
  #checkov:skip=CKV_GCP_84:Images hold the bot code only, no data or secrets; Google-managed encryption. Add kms_key_name here if your policy requires CMEK.
  project       = var.project_id
  location      = var.region
  repository_id = "kikimimi-functions"
  format        = "DOCKER"
  description   = "Images of the kikimimi Cloud Functions"

  cleanup_policy_dry_run = false
  cleanup_policies {
    id     = "keep-recent"
    action = "KEEP"
    most_recent_versions {
      keep_count = 5
    }
  }
  cleanup_policies {
    id     = "delete-old"
    action = "DELETE"
    condition {
      older_than = "2592000s" # 30 days
    }
  }

  depends_on = [google_project_service.apis]
}

resource "google_cloudfunctions2_function" "fn" {
  for_each = local.functions

  name        = local.function_names[each.key]
  project     = var.project_id
  location    = var.region
  description = each.value.description

  build_config {
    runtime           = var.python_runtime
    entry_point       = each.key
    docker_repository = google_artifact_registry_repository.functions.id
    service_account   = google_service_account.sa["build"].id

    source {
      storage_source {
        bucket = google_storage_bucket.source.name
        object = google_storage_bucket_object.source.name
      }
    }
  }

  service_config {
    available_memory                 = coalesce(try(var.function_overrides[each.key].memory, null), each.value.memory)
    timeout_seconds                  = local.function_timeouts[each.key]
    max_instance_count               = coalesce(try(var.function_overrides[each.key].max_instances, null), each.value.max_instances)
    min_instance_count               = coalesce(try(var.function_overrides[each.key].min_instances, null), 0)
    max_instance_request_concurrency = each.value.concurrency
    available_cpu                    = each.value.cpu
    # Internal only: Eventarc, Cloud Tasks and Cloud Scheduler of this project count as internal.
    ingress_settings               = "ALLOW_INTERNAL_ONLY"
    all_traffic_on_latest_revision = true
    service_account_email          = google_service_account.sa[each.key].email
    environment_variables          = local.function_env

    dynamic "secret_environment_variables" {
      for_each = { for env in each.value.secrets : env => local.secret_env[env] if contains(keys(local.secret_env), env) }
      content {
        key        = secret_environment_variables.key
        project_id = var.project_id
        secret     = google_secret_manager_secret.secrets[secret_environment_variables.value].secret_id
        version    = "latest"
      }
    }
  }

  # The runtime accounts must be able to read their secrets before a revision can start.
  depends_on = [
    google_project_iam_member.grants,
    google_secret_manager_secret_iam_member.grants,
    google_storage_bucket_iam_member.grants,
    google_artifact_registry_repository_iam_member.grants,
  ]
}

# The services behind the functions, read back to check that the URLs given to Cloud Tasks and
# Cloud Scheduler are URLs the services answer on.
data "google_cloud_run_v2_service" "fn" {
  for_each = local.functions

  project  = var.project_id
  location = var.region
  name     = google_cloudfunctions2_function.fn[each.key].name
}

check "function_urls_are_served" {
  assert {
    condition     = alltrue([for name, url in local.function_urls : contains(try(data.google_cloud_run_v2_service.fn[name].urls, []), url)])
    error_message = "A computed function URL is not among its Cloud Run service's URLs: Cloud Tasks and Cloud Scheduler would miss it. Compare output function_urls with `gcloud run services describe kikimimi-<fn> --region ${var.region} --format='value(urls)'`."
  }
}
