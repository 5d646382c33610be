terraform {
  # 1.5+: check blocks; terraform_data needs 1.4+.
  required_version = ">= 1.5.0, < 2.0.0"

  required_providers {
    # tests/terraform/test_provider_schema.py checks every argument against google and google-beta
    # 6.50.0, time 0.13.1 and archive 2.7.1: keep these pins admitting those versions.
    google = {
      source  = "hashicorp/google"
      version = "~> 6.30"
    }
    # Only for google_project_service_identity (apis.tf), which the GA provider does not have.
    google-beta = {
      source  = "hashicorp/google-beta"
      version = "~> 6.30"
    }
    time = {
      source  = "hashicorp/time"
      version = "~> 0.13"
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

provider "google-beta" {
  project        = var.project_id
  region         = var.region
  default_labels = var.labels
}

data "google_project" "this" {
  project_id = var.project_id
}
