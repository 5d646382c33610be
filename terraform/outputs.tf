# What to do next, and where to look.

locals {
  # Bot permissions the invite asks for (bit positions of Discord's permission flags).
  discord_permission_bits = {
    ADD_REACTIONS            = 6
    VIEW_CHANNEL             = 10
    SEND_MESSAGES            = 11
    EMBED_LINKS              = 14
    READ_MESSAGE_HISTORY     = 16
    USE_APPLICATION_COMMANDS = 31
    SEND_MESSAGES_IN_THREADS = 38
  }
  # = 277025475648; tests/terraform recomputes it and checks docs/deploy.md.
  discord_permissions = format("%d", sum([for bit in values(local.discord_permission_bits) : pow(2, bit)]))
  discord_client_id   = var.discord_application_id == "" ? "<APP_ID>" : var.discord_application_id
  discord_invite_url  = "https://discord.com/oauth2/authorize?client_id=${local.discord_client_id}&scope=bot%20applications.commands&permissions=${local.discord_permissions}"

  logs_url = "https://console.cloud.google.com/logs/query;query=%s?project=${var.project_id}"
  log_queries = {
    decisions = "jsonPayload.event=\"judgment\""
    replies   = "jsonPayload.event=(\"posted\" OR \"reaction\" OR \"reply_skipped\" OR \"reply_failed\" OR \"delivery_dropped\")"
    llm_calls = "jsonPayload.event=\"llm_call\" OR (jsonPayload.event=\"posted\" AND jsonPayload.input_tokens>0)"
    errors    = "severity>=ERROR AND (${local.functions_log_filter} OR resource.type=\"gce_instance\")"
    gateway   = "resource.type=\"gce_instance\" AND (jsonPayload.event=\"gateway_heartbeat\" OR jsonPayload.message:\"gateway_heartbeat\")"
  }

  secret_commands = [for key, s in google_secret_manager_secret.secrets :
    "read -rsp '${s.secret_id}: ' V && printf %s \"$V\" | gcloud secrets versions add ${s.secret_id} --project=${var.project_id} --data-file=- && unset V"
  ]

  # No channel is on by default: without this step the bot reads nothing and stays silent everywhere.
  enable_step = (
    contains(var.enabled_channels, "*") ? "Every channel the bot can see is on (enabled_channels = [\"*\"]); a moderator turns one off with /kikimimi disable."
    : length(var.enabled_channels) > 0 ? "Channels on from enabled_channels: ${join(", ", var.enabled_channels)}. Turn on another: a moderator runs /kikimimi enable in it."
    : "Turn it on where it should listen: in each such channel a moderator (Manage Channels) runs /kikimimi enable. Until then the bot reads nothing and stays silent everywhere (or list channel ids in enabled_channels)."
  )
}

output "next_steps" {
  description = "What to do after the first apply."
  value       = <<-EOT
    1. Put the secret values in Secret Manager (never in Terraform; the value is read from your shell):
         ${join("\n         ", local.secret_commands)}
       Then run `terraform apply` again if the first apply stopped at the functions (they need the values).
       The gateway VM waits for the bot token by itself (`gateway_token_waiting` in its logs) and starts
       within 5 minutes of it; after 30 minutes without one it logs an ERROR that pages.
    2. Invite the bot (Discord developer portal → your application → OAuth2; the bot needs the
       MESSAGE CONTENT intent):
         ${local.discord_invite_url}
    3. ${local.enable_step}
    4. Watch it work: ${format(local.logs_url, urlencode(local.log_queries["decisions"]))}
       Dashboard: https://console.cloud.google.com/monitoring/dashboards/builder/${basename(google_monitoring_dashboard.main.id)}?project=${var.project_id}
       Alerts mail ${var.alert_email} (gateway silent, function failures, dead letters); a guild past its
       daily LLM budget is a warning on the dashboard, not a page.
    ${var.attach_dead_letter_with_gcloud ? "" : "5. Attach the dead-letter topic to the ingest subscription:\n         ${local.ingest_dead_letter_command}"}
  EOT
}

output "discord_invite_url" {
  description = "Bot invite URL (scopes bot + applications.commands; permissions: View Channels, Send Messages, Send Messages in Threads, Read Message History, Add Reactions, Use Application Commands, Embed Links)."
  value       = local.discord_invite_url
}

output "discord_permissions" {
  description = "Permission integer of the invite."
  value       = local.discord_permissions
}

output "secrets_to_fill" {
  description = "Secret Manager secrets the operator fills, and the command for each."
  value       = { for key, s in google_secret_manager_secret.secrets : s.secret_id => "gcloud secrets versions add ${s.secret_id} --project=${var.project_id} --data-file=-" }
}

output "function_urls" {
  description = "URLs Cloud Tasks and Cloud Scheduler call (internal ingress: not reachable from the internet)."
  value       = local.function_urls
}

output "queues" {
  description = "Cloud Tasks queues by kind."
  value       = { for k, q in google_cloud_tasks_queue.queues : k => q.name }
}

output "pubsub_topic" {
  description = "Topic the gateway publishes to, and the dead-letter subscription to read failures from."
  value = {
    topic                    = google_pubsub_topic.messages.id
    dead_letter_subscription = google_pubsub_subscription.dead_letter.id
    eventarc_subscription    = local.eventarc_subscription
  }
}

output "ingest_dead_letter_command" {
  description = "The gcloud command that gives the Eventarc subscription its dead-letter policy (run by apply when attach_dead_letter_with_gcloud)."
  value       = local.ingest_dead_letter_command
}

output "service_accounts" {
  description = "Service account e-mail by role."
  value       = { for k, sa in google_service_account.sa : k => sa.email }
}

output "gateway" {
  description = "Gateway VM and how to reach it (SSH only with allow_iap_ssh = true)."
  value = var.gateway_enabled ? {
    instance = google_compute_instance.gateway[0].name
    zone     = local.gateway_zone
    ssh      = var.allow_iap_ssh ? "gcloud compute ssh ${google_compute_instance.gateway[0].name} --zone ${local.gateway_zone} --tunnel-through-iap --project ${var.project_id}" : "disabled (set allow_iap_ssh = true)"
    logs     = format(local.logs_url, urlencode("resource.type=\"gce_instance\" AND resource.labels.instance_id=\"${google_compute_instance.gateway[0].instance_id}\""))
  } : null
}

output "logs" {
  description = "Logs Explorer links for the questions operators ask (docs/deploy.md, Operate, explains the fields)."
  value       = { for name, q in local.log_queries : name => format(local.logs_url, urlencode(q)) }
}

output "source_object" {
  description = "The deployed source bundle (content-hashed name)."
  value       = "gs://${google_storage_bucket.source.name}/${google_storage_bucket_object.source.name}"
}
