# Observability. The functions log one JSON line per event (kikimimi/logs.py), the gateway VM one per
# Python log record (its journald lines, parsed by the Ops Agent config in gateway_vm/startup.sh).
# Every event, its severity and its fields are catalogued in functions/kikimimi/log_events.py;
# tests/terraform/test_monitoring.py checks each filter below against that catalogue and that every
# ERROR event reaches an alert. Cloud Logging puts the fields under jsonPayload.

locals {
  # Logs of the functions (gen2 functions log as Cloud Run revisions named after the function).
  functions_log_filter = "resource.type=\"cloud_run_revision\" AND resource.labels.service_name=~\"^kikimimi-\""
  # Logs of the gateway VM (the Ops Agent labels each entry with the instance's name).
  gateway_log_filter = "resource.type=\"gce_instance\" AND labels.\"compute.googleapis.com/resource_name\"=\"kikimimi-gateway\""

  log_metrics = {
    # Outcomes of judgments and replies, by event, decision and response type.
    decisions = {
      description = "kikimimi decisions: judgments, posts, reactions and skips by outcome and response type"
      filter      = "${local.functions_log_filter} AND jsonPayload.event=(\"judgment\" OR \"judgment_skipped\" OR \"posted\" OR \"reaction\" OR \"reply_skipped\" OR \"delivery_dropped\")"
      labels = {
        event         = "EXTRACT(jsonPayload.event)"
        decision      = "EXTRACT(jsonPayload.decision)"
        response_type = "EXTRACT(jsonPayload.response_type)"
      }
      value = null
    }
    # One entry per LLM call (judge logs event=llm_call).
    llm_calls = {
      description = "kikimimi LLM calls by function and model"
      filter      = "${local.functions_log_filter} AND jsonPayload.event=\"llm_call\""
      labels = {
        function = "EXTRACT(jsonPayload.function)"
        model    = "EXTRACT(jsonPayload.model)"
      }
      value = null
    }
    # Tokens per call: from llm_call (judge) and posted (reply: the writer's usage rides on the post).
    llm_input_tokens = {
      description = "kikimimi LLM input tokens per call"
      filter      = "${local.functions_log_filter} AND jsonPayload.event=(\"llm_call\" OR \"posted\") AND jsonPayload.input_tokens>0"
      labels = {
        function = "EXTRACT(jsonPayload.function)"
        model    = "EXTRACT(jsonPayload.model)"
      }
      value = "EXTRACT(jsonPayload.input_tokens)"
    }
    llm_output_tokens = {
      description = "kikimimi LLM output tokens per call"
      filter      = "${local.functions_log_filter} AND jsonPayload.event=(\"llm_call\" OR \"posted\") AND jsonPayload.output_tokens>0"
      labels = {
        function = "EXTRACT(jsonPayload.function)"
        model    = "EXTRACT(jsonPayload.model)"
      }
      value = "EXTRACT(jsonPayload.output_tokens)"
    }
    # Everything the functions log at ERROR or above: the ERROR events of the catalogue (memory_error,
    # reply_failed, delivery_dropped, ingest_rejected) and uncaught exceptions.
    errors = {
      description = "kikimimi function log entries at severity ERROR or above"
      filter      = "severity>=ERROR AND ${local.functions_log_filter}"
      labels = {
        service = "EXTRACT(resource.labels.service_name)"
        event   = "EXTRACT(jsonPayload.event)"
      }
      value = null
    }
    # A guild spent its daily LLM calls (a WARNING: expected under a flood, so it pages nobody); the
    # dashboard shows it by guild, and an alert on it is one condition away for those who want one.
    llm_budget_reached = {
      description = "kikimimi guilds that reached their daily LLM budget"
      filter      = "${local.functions_log_filter} AND jsonPayload.event=\"llm_budget_reached\""
      labels = {
        guild = "EXTRACT(jsonPayload.guild)"
      }
      value = null
    }
    # The gateway's ERROR lines (token rejected, intent refused, messages lost): the severity comes
    # from the JSON line itself (the Ops Agent's parse_json + modify_fields in gateway_vm/startup.sh).
    gateway_errors = {
      description = "kikimimi gateway log entries at severity ERROR or above"
      filter      = "severity>=ERROR AND ${local.gateway_log_filter}"
      labels = {
        event = "EXTRACT(jsonPayload.event)"
      }
      value = null
    }
    # The gateway logs a gateway_heartbeat line every minute; silence means it is down.
    gateway_heartbeats = {
      description = "kikimimi gateway heartbeats"
      filter      = "${local.gateway_log_filter} AND jsonPayload.event=\"gateway_heartbeat\""
      labels      = {}
      value       = null
    }
  }

  notification_channels = [google_monitoring_notification_channel.email.id]
}

resource "google_logging_metric" "metrics" {
  for_each = local.log_metrics

  project     = var.project_id
  name        = "kikimimi_${each.key}"
  description = each.value.description
  filter      = each.value.filter

  metric_descriptor {
    metric_kind  = "DELTA"
    value_type   = each.value.value == null ? "INT64" : "DISTRIBUTION"
    unit         = each.value.value == null ? "1" : "{token}"
    display_name = each.value.description

    dynamic "labels" {
      for_each = each.value.labels
      content {
        key        = labels.key
        value_type = "STRING"
      }
    }
  }

  label_extractors = each.value.labels
  value_extractor  = each.value.value

  dynamic "bucket_options" {
    for_each = each.value.value == null ? [] : [1]
    content {
      exponential_buckets {
        num_finite_buckets = 16
        growth_factor      = 2
        scale              = 16
      }
    }
  }

  depends_on = [google_project_service.apis]
}

# alert_email is required (variables.tf): an alert that mails nobody is an outage nobody hears about.
resource "google_monitoring_notification_channel" "email" {
  project      = var.project_id
  display_name = "kikimimi operators"
  type         = "email"
  labels = {
    email_address = var.alert_email
  }

  depends_on = [google_project_service.apis]
}

# ------------------------------------------------------------------------------------------ alerts

resource "google_monitoring_alert_policy" "function_5xx" {
  project      = var.project_id
  display_name = "kikimimi: function 5xx answers"
  # Both at once, for the same function: a share of failures and a floor of failures. A ratio alone pages
  # on 1 failure out of 1 request (a quiet night's only retry); a count alone on a busy day's noise.
  combiner              = "AND_WITH_MATCHING_RESOURCE"
  severity              = "ERROR"
  notification_channels = local.notification_channels

  conditions {
    display_name = "5xx above ${var.function_error_ratio_threshold * 100}% of requests over 10 minutes"
    condition_threshold {
      filter             = "resource.type=\"cloud_run_revision\" AND resource.labels.service_name=starts_with(\"kikimimi-\") AND metric.type=\"run.googleapis.com/request_count\" AND metric.labels.response_code_class=\"5xx\""
      denominator_filter = "resource.type=\"cloud_run_revision\" AND resource.labels.service_name=starts_with(\"kikimimi-\") AND metric.type=\"run.googleapis.com/request_count\""
      comparison         = "COMPARISON_GT"
      threshold_value    = var.function_error_ratio_threshold
      duration           = "0s"

      aggregations {
        alignment_period     = "600s"
        per_series_aligner   = "ALIGN_DELTA"
        cross_series_reducer = "REDUCE_SUM"
        group_by_fields      = ["resource.label.service_name"]
      }
      denominator_aggregations {
        alignment_period     = "600s"
        per_series_aligner   = "ALIGN_DELTA"
        cross_series_reducer = "REDUCE_SUM"
        group_by_fields      = ["resource.label.service_name"]
      }
      trigger {
        count = 1
      }
    }
  }

  conditions {
    display_name = "at least ${var.function_error_min_failures} 5xx answers over 10 minutes"
    condition_threshold {
      filter = "resource.type=\"cloud_run_revision\" AND resource.labels.service_name=starts_with(\"kikimimi-\") AND metric.type=\"run.googleapis.com/request_count\" AND metric.labels.response_code_class=\"5xx\""
      # Alert thresholds compare strictly (GT): more than min - 1 whole failures is at least min.
      comparison      = "COMPARISON_GT"
      threshold_value = var.function_error_min_failures - 1
      duration        = "0s"

      aggregations {
        alignment_period     = "600s"
        per_series_aligner   = "ALIGN_DELTA"
        cross_series_reducer = "REDUCE_SUM"
        group_by_fields      = ["resource.label.service_name"]
      }
      trigger {
        count = 1
      }
    }
  }

  alert_strategy {
    auto_close = "1800s"
  }

  documentation {
    mime_type = "text/markdown"
    content   = <<-EOT
      A kikimimi function answers 5xx to at least ${var.function_error_min_failures} requests and more
      than ${var.function_error_ratio_threshold * 100}% of them over 10 minutes (Eventarc, Cloud Tasks and
      Scheduler retry them). Read its errors in Logs Explorer:

          ${local.functions_log_filter} AND severity>=ERROR

      Right after a deploy: apply the previous commit (docs/deploy.md, "Operate").
    EOT
  }
}

resource "google_monitoring_alert_policy" "function_errors" {
  project               = var.project_id
  display_name          = "kikimimi: function errors"
  combiner              = "OR"
  severity              = "ERROR"
  notification_channels = local.notification_channels

  # Errors that do not fail the request: an ERROR event (lost reply or summary, dropped delivery,
  # rejected payload) or a crash logged and acknowledged. Each needs a look.
  conditions {
    display_name = "ERROR log entries"
    condition_threshold {
      filter          = "resource.type=\"cloud_run_revision\" AND metric.type=\"logging.googleapis.com/user/${google_logging_metric.metrics["errors"].name}\""
      comparison      = "COMPARISON_GT"
      threshold_value = 0
      duration        = "0s"

      aggregations {
        alignment_period     = "600s"
        per_series_aligner   = "ALIGN_DELTA"
        cross_series_reducer = "REDUCE_SUM"
        group_by_fields      = ["metric.label.service", "metric.label.event"]
      }
      trigger {
        count = 1
      }
    }
  }

  alert_strategy {
    auto_close = "1800s"
  }

  documentation {
    mime_type = "text/markdown"
    content   = <<-EOT
      A kikimimi function is failing. Read its errors in Logs Explorer:

          ${local.functions_log_filter} AND severity>=ERROR

      `jsonPayload.event` names what failed (docs/deploy.md, "Operate": what to do for each event).
    EOT
  }
}

resource "google_monitoring_alert_policy" "gateway_silent" {
  count = var.gateway_enabled ? 1 : 0

  project               = var.project_id
  display_name          = "kikimimi: gateway silent"
  combiner              = "OR"
  severity              = "CRITICAL"
  notification_channels = local.notification_channels

  conditions {
    display_name = "No gateway heartbeat for ${var.gateway_silence_minutes} minutes"
    condition_absent {
      filter   = "metric.type=\"logging.googleapis.com/user/${google_logging_metric.metrics["gateway_heartbeats"].name}\" AND resource.type=\"gce_instance\""
      duration = "${var.gateway_silence_minutes * 60}s"

      aggregations {
        alignment_period     = "300s"
        per_series_aligner   = "ALIGN_DELTA"
        cross_series_reducer = "REDUCE_SUM"
      }
      trigger {
        count = 1
      }
    }
  }

  alert_strategy {
    auto_close = "1800s"
  }

  documentation {
    mime_type = "text/markdown"
    content   = <<-EOT
      The Discord gateway VM has logged no `gateway_heartbeat` for ${var.gateway_silence_minutes} minutes
      (it beats only while connected to Discord): nothing reaches the bot. `gateway_token_waiting` lines
      mean the bot token's secret has no version yet (add one; the VM starts the gateway by itself).
      Otherwise check the VM (`gcloud compute instances describe kikimimi-gateway
      --zone ${local.gateway_zone}`), its serial console and `jsonPayload.event="gateway_heartbeat"`
      in Logs Explorer; `gcloud compute instances reset` restarts it.
    EOT
  }
}

resource "google_monitoring_alert_policy" "gateway_errors" {
  count = var.gateway_enabled ? 1 : 0

  project               = var.project_id
  display_name          = "kikimimi: gateway errors"
  combiner              = "OR"
  severity              = "ERROR"
  notification_channels = local.notification_channels

  conditions {
    display_name = "Gateway ERROR log entries"
    condition_threshold {
      filter          = "resource.type=\"gce_instance\" AND metric.type=\"logging.googleapis.com/user/${google_logging_metric.metrics["gateway_errors"].name}\""
      comparison      = "COMPARISON_GT"
      threshold_value = 0
      duration        = "0s"

      aggregations {
        alignment_period     = "300s"
        per_series_aligner   = "ALIGN_DELTA"
        cross_series_reducer = "REDUCE_SUM"
        group_by_fields      = ["metric.label.event"]
      }
      trigger {
        count = 1
      }
    }
  }

  alert_strategy {
    auto_close = "1800s"
  }

  documentation {
    mime_type = "text/markdown"
    content   = <<-EOT
      The Discord gateway logged an error. Read it in Logs Explorer:

          ${local.gateway_log_filter} AND severity>=ERROR

      `gateway_token_missing`: the token's secret still has no version after 30 minutes: add one (the
      VM is waiting and starts the gateway by itself); `gateway_token_rejected`: add a valid token
      version and reset the VM; `gateway_intents_refused`: enable the MESSAGE CONTENT intent in the
      Developer Portal;
      `gateway_backlog_dropped` / `gateway_unflushed`: messages were lost, check Pub/Sub publishing.
    EOT
  }
}

resource "google_monitoring_alert_policy" "dead_letters" {
  project               = var.project_id
  display_name          = "kikimimi: messages dead-lettered"
  combiner              = "OR"
  severity              = "WARNING"
  notification_channels = local.notification_channels

  conditions {
    display_name = "Messages published to ${google_pubsub_topic.dead_letter.name}"
    condition_threshold {
      filter          = "resource.type=\"pubsub_topic\" AND resource.labels.topic_id=\"${google_pubsub_topic.dead_letter.name}\" AND metric.type=\"pubsub.googleapis.com/topic/send_message_operation_count\""
      comparison      = "COMPARISON_GT"
      threshold_value = 0
      duration        = "0s"

      aggregations {
        alignment_period     = "300s"
        per_series_aligner   = "ALIGN_DELTA"
        cross_series_reducer = "REDUCE_SUM"
      }
      trigger {
        count = 1
      }
    }
  }

  documentation {
    mime_type = "text/markdown"
    content   = "Ingest failed on a Discord message ${var.dead_letter_max_delivery_attempts} times. Read it with `gcloud pubsub subscriptions pull ${google_pubsub_subscription.dead_letter.name} --limit 10` and the ingest errors in Logs Explorer."
  }
}

# ------------------------------------------------------------------------------------------ dashboard

locals {
  user_metric = { for k, m in google_logging_metric.metrics : k => "logging.googleapis.com/user/${m.name}" }

  dashboard_tiles = [
    { title = "Decisions by outcome", filter = "metric.type=\"${local.user_metric["decisions"]}\"", group_by = ["metric.label.event", "metric.label.decision"], aligner = "ALIGN_DELTA", reducer = "REDUCE_SUM" },
    { title = "Decisions by response type", filter = "metric.type=\"${local.user_metric["decisions"]}\"", group_by = ["metric.label.response_type"], aligner = "ALIGN_DELTA", reducer = "REDUCE_SUM" },
    { title = "LLM calls by function", filter = "metric.type=\"${local.user_metric["llm_calls"]}\"", group_by = ["metric.label.function", "metric.label.model"], aligner = "ALIGN_DELTA", reducer = "REDUCE_SUM" },
    { title = "LLM input tokens per call (p50)", filter = "metric.type=\"${local.user_metric["llm_input_tokens"]}\"", group_by = ["metric.label.function"], aligner = "ALIGN_DELTA", reducer = "REDUCE_PERCENTILE_50" },
    { title = "LLM output tokens per call (p50)", filter = "metric.type=\"${local.user_metric["llm_output_tokens"]}\"", group_by = ["metric.label.function"], aligner = "ALIGN_DELTA", reducer = "REDUCE_PERCENTILE_50" },
    { title = "Errors (log entries)", filter = "metric.type=\"${local.user_metric["errors"]}\"", group_by = ["metric.label.service", "metric.label.event"], aligner = "ALIGN_DELTA", reducer = "REDUCE_SUM" },
    { title = "Gateway errors (log entries)", filter = "metric.type=\"${local.user_metric["gateway_errors"]}\"", group_by = ["metric.label.event"], aligner = "ALIGN_DELTA", reducer = "REDUCE_SUM" },
    { title = "Function requests by status class", filter = "metric.type=\"run.googleapis.com/request_count\" AND resource.type=\"cloud_run_revision\" AND resource.labels.service_name=starts_with(\"kikimimi-\")", group_by = ["resource.label.service_name", "metric.label.response_code_class"], aligner = "ALIGN_RATE", reducer = "REDUCE_SUM" },
    { title = "Task queue depth", filter = "metric.type=\"cloudtasks.googleapis.com/queue/depth\" AND resource.type=\"cloud_tasks_queue\"", group_by = ["resource.label.queue_id"], aligner = "ALIGN_MEAN", reducer = "REDUCE_SUM" },
    { title = "Guilds at their daily LLM budget", filter = "metric.type=\"${local.user_metric["llm_budget_reached"]}\"", group_by = ["metric.label.guild"], aligner = "ALIGN_DELTA", reducer = "REDUCE_SUM" },
    { title = "Gateway heartbeats", filter = "metric.type=\"${local.user_metric["gateway_heartbeats"]}\"", group_by = [], aligner = "ALIGN_DELTA", reducer = "REDUCE_SUM" },
    { title = "Dead-lettered messages", filter = "metric.type=\"pubsub.googleapis.com/topic/send_message_operation_count\" AND resource.type=\"pubsub_topic\" AND resource.labels.topic_id=\"${google_pubsub_topic.dead_letter.name}\"", group_by = [], aligner = "ALIGN_DELTA", reducer = "REDUCE_SUM" },
  ]
}

resource "google_monitoring_dashboard" "main" {
  project = var.project_id
  dashboard_json = jsonencode({
    displayName = "kikimimi"
    mosaicLayout = {
      columns = 12
      tiles = [for i, t in local.dashboard_tiles : {
        xPos   = (i % 2) * 6
        yPos   = floor(i / 2) * 4
        width  = 6
        height = 4
        widget = {
          title = t.title
          xyChart = {
            dataSets = [{
              plotType = "LINE"
              timeSeriesQuery = {
                timeSeriesFilter = {
                  filter = t.filter
                  aggregation = {
                    alignmentPeriod    = "300s"
                    perSeriesAligner   = t.aligner
                    crossSeriesReducer = t.reducer
                    groupByFields      = t.group_by
                  }
                }
              }
            }]
          }
        }
      }]
    }
  })

  depends_on = [google_logging_metric.metrics]
}
