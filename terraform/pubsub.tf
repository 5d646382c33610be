# Pub/Sub: the gateway publishes every Discord message to `messages`; an Eventarc trigger delivers it
# to the ingest function as a CloudEvent; what ingest keeps failing on ends in `dead_letter`.

resource "google_pubsub_topic" "messages" {
  #checkov:skip=CKV_GCP_83:Google-managed encryption; set kms_key_name here if your policy requires CMEK (the Pub/Sub service agent then needs the key).
  name    = var.pubsub_topic_name
  project = var.project_id

  # Keep a day of messages so a subscription can be seeked back after an incident.
  message_retention_duration = "86400s"

  depends_on = [google_project_service.apis]
}

resource "google_pubsub_topic" "dead_letter" {
  #checkov:skip=CKV_GCP_83:Google-managed encryption; set kms_key_name here if your policy requires CMEK.
  name    = "${var.pubsub_topic_name}-dead-letter"
  project = var.project_id

  depends_on = [google_project_service.apis]
}

# Holds dead letters for a week so an operator can read them (gcloud pubsub subscriptions pull).
resource "google_pubsub_subscription" "dead_letter" {
  name    = "${var.pubsub_topic_name}-dead-letter"
  project = var.project_id
  topic   = google_pubsub_topic.dead_letter.id

  ack_deadline_seconds       = 60
  message_retention_duration = "604800s"
  retain_acked_messages      = false

  expiration_policy {
    ttl = "" # never expires, even when nobody pulls
  }
}

# Eventarc trigger: topic → ingest (CloudEvent, authenticated with the eventarc service account).
# Declared on its own rather than as the function's event_trigger so that the subscription Eventarc
# creates is known to Terraform (for the dead-letter settings below).
resource "google_eventarc_trigger" "ingest" {
  name            = "kikimimi-ingest"
  project         = var.project_id
  location        = var.region
  service_account = google_service_account.sa["eventarc"].email

  matching_criteria {
    attribute = "type"
    value     = "google.cloud.pubsub.topic.v1.messagePublished"
  }

  destination {
    cloud_run_service {
      service = google_cloudfunctions2_function.fn["ingest"].name
      region  = var.region
      path    = "/"
    }
  }

  transport {
    pubsub {
      topic = google_pubsub_topic.messages.id
    }
  }

  # Pub/Sub mints the push token of the trigger's account (pubsub_token_creator); the Eventarc agent
  # must exist and hold its role first (apis.tf).
  depends_on = [
    google_cloud_run_v2_service_iam_member.grants,
    google_service_account_iam_member.pubsub_token_creator,
    time_sleep.service_agents,
  ]
}

locals {
  eventarc_subscription = google_eventarc_trigger.ingest.transport[0].pubsub[0].subscription
  pubsub_service_agent  = google_project_service_identity.agents["pubsub"].member

  # Retry with back-off, then dead-letter. Eventarc's subscription retries until its 24 h retention
  # runs out and then drops the message; the provider cannot configure it (the field is output-only
  # in the Eventarc API), so this command does, and it is shown as an output when not run here.
  ingest_dead_letter_command = join(" ", [
    "gcloud pubsub subscriptions update", local.eventarc_subscription,
    "--project=${var.project_id}",
    "--dead-letter-topic=${google_pubsub_topic.dead_letter.id}",
    "--max-delivery-attempts=${var.dead_letter_max_delivery_attempts}",
    "--min-retry-delay=10s",
    "--max-retry-delay=600s",
  ])
}

# The Pub/Sub service agent forwards failed messages: it must publish to the dead-letter topic and
# acknowledge on the source subscription. Both grants are on those two resources only.
resource "google_pubsub_topic_iam_member" "dead_letter_publisher" {
  project = var.project_id
  topic   = google_pubsub_topic.dead_letter.name
  role    = "roles/pubsub.publisher"
  member  = local.pubsub_service_agent

  depends_on = [time_sleep.service_agents]
}

resource "google_pubsub_subscription_iam_member" "eventarc_subscriber" {
  project      = var.project_id
  subscription = local.eventarc_subscription
  role         = "roles/pubsub.subscriber"
  member       = local.pubsub_service_agent
}

resource "terraform_data" "ingest_dead_letter" {
  count = var.attach_dead_letter_with_gcloud ? 1 : 0

  triggers_replace = [local.ingest_dead_letter_command]

  provisioner "local-exec" {
    command = local.ingest_dead_letter_command
  }

  depends_on = [
    google_pubsub_topic_iam_member.dead_letter_publisher,
    google_pubsub_subscription_iam_member.eventarc_subscriber,
  ]
}
