terraform {
  # 1.5+: check blocks; terraform_data needs 1.4+.
  required_version = ">= 1.5.0, < 2.0.0"

  required_providers {
    google = {
      source  = "hashicorp/google"
      version = "~> 6.30"
    }
    archive = {
      source  = "hashicorp/archive"
      version = "~> 2.4"
    }
  }
}

provider "google" {
  project = var.project_id
  region  = var.region

  # Every resource that takes labels gets these (plus its own).
  default_labels = var.labels
}

data "google_project" "this" {
  project_id = var.project_id
}
