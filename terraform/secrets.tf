# Secret Manager: only the secrets are managed here, never their values (no secret versions in
# Terraform, so no token ever lands in the state). The operator adds the values with gcloud, see the
# `next_steps` output. Who may read each secret is in iam.tf (local.grants, on = "secret").

locals {
  secrets = merge(
    {
      discord_token = {
        secret_id   = var.discord_token_secret_id
        description = "Discord bot token (DISCORD_TOKEN): reply function and gateway VM"
      }
    },
    var.use_vertex_ai ? {} : {
      gemini_api_key = {
        secret_id   = var.gemini_api_key_secret_id
        description = "Gemini API key (GEMINI_API_KEY): functions that call the LLM"
      }
    },
  )
}

resource "google_secret_manager_secret" "secrets" {
  for_each = local.secrets

  secret_id = each.value.secret_id
  project   = var.project_id
  labels    = { purpose = each.key }

  annotations = {
    description = each.value.description
  }

  replication {
    auto {}
  }

  depends_on = [google_project_service.apis]
}
