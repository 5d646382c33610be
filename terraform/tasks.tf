# Cloud Tasks queues. Every queue has a bounded number of attempts and a bounded retry window: a task
# that keeps failing is dropped (and logged), never retried forever. Task-level dispatch deadlines are
# set by the code per task kind (adapters/cloud_tasks.py) to the timeout of the function the kind calls
# (*_DISPATCH_DEADLINE_SECONDS in functions.tf).

locals {
  queues = {
    # Judgments are cheap to lose: a newer message schedules a new one, and a stale one does nothing.
    judge = {
      name                      = var.judge_queue_name
      max_dispatches_per_second = 10
      max_concurrent_dispatches = 20
      max_attempts              = 3
      min_backoff               = "5s"
      max_backoff               = "60s"
      max_doublings             = 3
      max_retry_duration        = "600s"
    }
    # Replies retry transient Discord/LLM failures (the nonce makes a retry post once) but not for
    # long: a reply 15 minutes late is worse than none. 5/s stays under Discord's per-bot limits.
    reply = {
      name                      = var.reply_queue_name
      max_dispatches_per_second = 5
      max_concurrent_dispatches = 10
      max_attempts              = 5
      min_backoff               = "2s"
      max_backoff               = "60s"
      max_doublings             = 4
      max_retry_duration        = "900s"
    }
    # Memory work is slow, LLM-heavy and not urgent: few at a time, patient retries, six hours at most.
    memory = {
      name                      = var.memory_queue_name
      max_dispatches_per_second = 1
      max_concurrent_dispatches = 2
      max_attempts              = 5
      min_backoff               = "60s"
      max_backoff               = "900s"
      max_doublings             = 4
      max_retry_duration        = "21600s"
    }
  }
}

resource "google_cloud_tasks_queue" "queues" {
  for_each = local.queues

  name     = each.value.name
  project  = var.project_id
  location = var.region

  rate_limits {
    max_dispatches_per_second = each.value.max_dispatches_per_second
    max_concurrent_dispatches = each.value.max_concurrent_dispatches
  }

  retry_config {
    max_attempts       = each.value.max_attempts
    min_backoff        = each.value.min_backoff
    max_backoff        = each.value.max_backoff
    max_doublings      = each.value.max_doublings
    max_retry_duration = each.value.max_retry_duration
  }

  # Log every attempt: "why did the reply never arrive" starts here.
  stackdriver_logging_config {
    sampling_ratio = 1.0
  }

  depends_on = [google_project_service.apis]
}
