# The Discord gateway VM: a discord.py process that keeps the gateway websocket open and publishes each
# message to the topic. It has no external IP and accepts no inbound traffic; it reaches Discord, PyPI
# and Debian through Cloud NAT and Google APIs through Private Google Access.
#
# Its startup script is the template gateway_vm/startup.sh (written with the gateway): it installs the
# Ops Agent first, downloads the source bundle, installs gateway_vm/requirements.txt (its own pins only)
# in a venv, waits for the bot token in Secret Manager (read with the VM's account; a first apply has
# no version yet) and starts the systemd unit. The variables it takes
# are exactly the keys of local.gateway_template_vars (tests/terraform checks both sides), and every
# setting the gateway reads is in its environment file (tests/terraform/test_first_apply.py).

locals {
  gateway_zone = coalesce(var.zone, "${var.region}-a")

  gateway_template_vars = {
    project = var.project_id
    topic   = google_pubsub_topic.messages.name
    # The same database as the functions: slash-command settings must land where they read them.
    firestore_database = var.firestore_database
    source_bucket      = google_storage_bucket.source.name
    source_object      = google_storage_bucket_object.source.name
    token_secret       = google_secret_manager_secret.secrets["discord_token"].secret_id
    enabled_channels   = join(",", var.enabled_channels)
    bot_name           = var.bot_name
    shard_count        = tostring(var.gateway_shard_count)
    shard_ids          = join(",", [for id in var.gateway_shard_ids : tostring(id)])
    allow_dms          = tostring(var.gateway_allow_dms)
    backlog            = tostring(var.gateway_backlog)
    # Replies' default language; /kikimimi-me privacy tells what is kept (the buffer, memory) and how long.
    bot_language       = var.bot_language
    buffer_ttl_minutes = tostring(var.buffer_ttl_minutes)
    memory_enabled     = tostring(var.memory_enabled)
    # /kikimimi-me privacy tells how long facts last; /kikimimi status the server's web-search default.
    fact_half_life_days = tostring(var.fact_lifetime.half_life_days)
    fact_min_score      = tostring(var.fact_lifetime.min_score)
    grounding           = tostring(var.grounding)
    # /kikimimi status: whether a model judges, and the budgets its health line counts against.
    llm_backend                 = var.llm_backend
    llm_judgments_per_hour      = tostring(var.llm_judgments_per_hour)
    llm_calls_per_guild_per_day = tostring(var.llm_calls_per_guild_per_day)
    # /kikimimi status: the talkativeness, down to the floor the functions use.
    talkativeness_floor = tostring(var.talkativeness_floor)
    # Catch-up after a gap: the addressed lines it always publishes (mentions, name calls) and how old.
    bot_aliases               = join(",", var.bot_aliases)
    addressed_max_age_seconds = tostring(var.addressed_max_age_seconds)
    # /kikimimi-me privacy: how long an early edit is kept.
    tombstone_days = tostring(var.tombstone_days)
  }

  gateway_startup_script = templatefile("${local.repo_root}/gateway_vm/startup.sh", local.gateway_template_vars)
}

# ------------------------------------------------------------------------------------------ network

resource "google_compute_network" "gateway" {
  count = var.gateway_enabled ? 1 : 0

  name                    = "kikimimi-gateway"
  project                 = var.project_id
  auto_create_subnetworks = false
  routing_mode            = "REGIONAL"

  depends_on = [google_project_service.apis]
}

resource "google_compute_subnetwork" "gateway" {
  count = var.gateway_enabled ? 1 : 0

  name                     = "kikimimi-gateway"
  project                  = var.project_id
  region                   = var.region
  network                  = google_compute_network.gateway[0].id
  ip_cidr_range            = var.gateway_subnet_cidr
  private_ip_google_access = true

  log_config {
    aggregation_interval = "INTERVAL_10_MIN"
    flow_sampling        = 0.5
    metadata             = "INCLUDE_ALL_METADATA"
  }
}

resource "google_compute_router" "gateway" {
  count = var.gateway_enabled ? 1 : 0

  name    = "kikimimi-gateway"
  project = var.project_id
  region  = var.region
  network = google_compute_network.gateway[0].id
}

# Egress to Discord without an external IP on the VM.
resource "google_compute_router_nat" "gateway" {
  count = var.gateway_enabled ? 1 : 0

  name                               = "kikimimi-gateway"
  project                            = var.project_id
  region                             = var.region
  router                             = google_compute_router.gateway[0].name
  nat_ip_allocate_option             = "AUTO_ONLY"
  source_subnetwork_ip_ranges_to_nat = "LIST_OF_SUBNETWORKS"

  subnetwork {
    name                    = google_compute_subnetwork.gateway[0].id
    source_ip_ranges_to_nat = ["ALL_IP_RANGES"]
  }

  log_config {
    enable = true
    filter = "ERRORS_ONLY"
  }
}

# No ingress: VPC networks deny it implicitly; this rule says so explicitly and logs attempts.
resource "google_compute_firewall" "deny_all_ingress" {
  count = var.gateway_enabled ? 1 : 0

  name        = "kikimimi-gateway-deny-ingress"
  project     = var.project_id
  network     = google_compute_network.gateway[0].id
  direction   = "INGRESS"
  priority    = 65000
  description = "The gateway VM accepts no inbound connections."

  source_ranges = ["0.0.0.0/0"]

  deny {
    protocol = "all"
  }

  log_config {
    metadata = "INCLUDE_ALL_METADATA"
  }
}

# Optional SSH for debugging, from Identity-Aware Proxy's range only (OS Login decides who).
resource "google_compute_firewall" "iap_ssh" {
  count = var.gateway_enabled && var.allow_iap_ssh ? 1 : 0

  name        = "kikimimi-gateway-iap-ssh"
  project     = var.project_id
  network     = google_compute_network.gateway[0].id
  direction   = "INGRESS"
  priority    = 1000
  description = "SSH through IAP TCP forwarding only."

  source_ranges = ["35.235.240.0/20"]
  target_tags   = ["kikimimi-gateway"]

  allow {
    protocol = "tcp"
    ports    = ["22"]
  }

  log_config {
    metadata = "INCLUDE_ALL_METADATA"
  }
}

# ------------------------------------------------------------------------------------------ VM

# Changes when the bundle or the rendered startup script changes (if gateway_recreate_on_source_change):
# replaces the VM so that it boots, and so installs, the new code and settings. Metadata alone would
# only apply at the next reboot.
resource "terraform_data" "gateway_source" {
  input = var.gateway_recreate_on_source_change ? sha256(local.gateway_startup_script) : "manual"
}

resource "google_compute_instance" "gateway" {
  #checkov:skip=CKV_GCP_38:CSEK boot disks need the raw key at every start, so the VM could not restart by itself; Google-managed encryption at rest instead (boot_disk.kms_key_self_link takes a CMEK key if required).
  count = var.gateway_enabled ? 1 : 0

  name         = "kikimimi-gateway"
  project      = var.project_id
  zone         = local.gateway_zone
  machine_type = var.gateway_machine_type
  description  = "kikimimi Discord gateway: publishes messages to ${google_pubsub_topic.messages.name}"
  tags         = ["kikimimi-gateway"]

  can_ip_forward            = false
  deletion_protection       = false
  allow_stopping_for_update = true

  boot_disk {
    auto_delete = true
    initialize_params {
      image = var.gateway_image
      size  = var.gateway_disk_size_gb
      type  = "pd-balanced"
    }
  }

  # No access_config block: no external IP. Egress goes through Cloud NAT.
  network_interface {
    subnetwork = google_compute_subnetwork.gateway[0].id
  }

  service_account {
    email  = google_service_account.sa["gateway"].email
    scopes = ["cloud-platform"] # what it may do is decided by IAM on its account (iam.tf)
  }

  shielded_instance_config {
    enable_secure_boot          = true
    enable_vtpm                 = true
    enable_integrity_monitoring = true
  }

  scheduling {
    automatic_restart   = true
    on_host_maintenance = "MIGRATE"
    preemptible         = false
  }

  metadata = {
    "enable-oslogin"         = "TRUE"
    "block-project-ssh-keys" = "TRUE"
    "serial-port-enable"     = "FALSE"
    "startup-script"         = local.gateway_startup_script
  }

  lifecycle {
    replace_triggered_by = [terraform_data.gateway_source]
  }

  depends_on = [
    google_compute_router_nat.gateway,
    google_pubsub_topic_iam_member.grants,
    google_secret_manager_secret_iam_member.grants,
    google_storage_bucket_iam_member.grants,
    google_project_iam_member.grants,
  ]
}
