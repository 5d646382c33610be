# Cloud Scheduler: periodic memory work. Each job POSTs a MaintainTask body (kikimimi/memory_wire.py:
# {"job": "guild_memory" | "fact_maintenance"}) to the maintain function with an OIDC token of the
# scheduler account (roles/run.invoker on that function's service only). Cloud Scheduler adds the
# X-CloudScheduler header the memory entry points accept.

locals {
  scheduler_jobs = {
    "guild-memory" = {
      function    = "maintain"
      schedule    = var.guild_memory_schedule
      body        = { job = "guild_memory" }
      description = "Rebuild the guild memory of guilds with recent activity from their channel summaries."
      deadline    = "${local.function_timeouts["maintain"]}s" # as long as maintain may run: no retry mid-run
    }
    "fact-maintenance" = {
      function    = "maintain"
      schedule    = var.fact_maintenance_schedule
      body        = { job = "fact_maintenance" }
      description = "Expire facts whose score has decayed."
      deadline    = "${local.function_timeouts["maintain"]}s" # as long as maintain may run: no retry mid-run
    }
  }
}

resource "google_cloud_scheduler_job" "jobs" {
  for_each = local.scheduler_jobs

  name             = "kikimimi-${each.key}"
  project          = var.project_id
  region           = var.region
  description      = each.value.description
  schedule         = each.value.schedule
  time_zone        = var.scheduler_time_zone
  attempt_deadline = each.value.deadline
  paused           = var.scheduler_paused

  # A missed run is made up by the next one: retry a little, never pile up.
  retry_config {
    retry_count          = 2
    min_backoff_duration = "30s"
    max_backoff_duration = "300s"
    max_doublings        = 2
  }

  http_target {
    http_method = "POST"
    uri         = local.function_urls[each.value.function]
    headers     = { "Content-Type" = "application/json" }
    body        = base64encode(jsonencode(each.value.body))

    oidc_token {
      service_account_email = google_service_account.sa["scheduler"].email
      audience              = local.function_urls[each.value.function]
    }
  }

  depends_on = [
    google_project_service.apis,
    google_cloud_run_v2_service_iam_member.grants,
  ]
}
