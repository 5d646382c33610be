# Firestore (native mode). Layout:
#   channels/{key}                          channel settings            adapters/firestore/places.py
#   channels/{key}/messages/{id}            the buffer                  expire_at → TTL
#                                           (or a tombstone / early edit in the message's place, kept
#                                           TOMBSTONE_DAYS through the same expire_at TTL); changed_at
#                                           on every write, and two markers (erased, intervened)
#   channels/{key}/interventions/{id}       what the bot did            expire_at → TTL
#   channels/{key}/judgments/{digest}       cached LLM judgments        expire_at → TTL
#   channels/{key}/{watch,tension}_judgments/{digest}  the reserved budgets' judgments  expire_at → TTL
#   channels/{key}/reply_drafts/{nonce}     a written reply, for its    expire_at → TTL
#                                           task's retries (an hour)
#   channels/{key}/windows/newest           the place's newest lines    expire_at → TTL (its oldest
#                                           and interventions, shared   line's own expiry); cleared by
#                                           by the functions' copies    every edit, delete and erase
#   channels/{key}/receptions/{day}         how people received the     expire_at → TTL (8 days);
#                                           bot's posts: counts only    erased with the place, by disable
#   memory_channels/{key}                   summary, mood, topics       adapters/firestore/memory.py
#   memory_channels/{key}/chunks/{seq}      summarized stretches        expire_at → TTL
#   memory_channels/{key}/facts/{id}        facts + `embedding` vector  expires_at: decay, by maintain
#   memory_guilds/{guild}/profiles/{user}   who talks where             deleted by `forget me`
#   channels/{key}/caps/user-{digest}       answers to a member         expire_at → TTL; the digest of the
#                                           (a minute)                  user id, deleted by `forget me`
#   gateway_marks/{place}                   the last message id the     expire_at → TTL (30 days)
#                                           gateway published there
#
# Indexes: the store's queries each filter and order on one field of one collection (messages:
# created_at >= since order by created_at desc limit n, and changed_at > t order by changed_at limit n
# for each process's copy of a place; interventions: at >= since order by at, and changed_at > t order
# by changed_at), which
# the automatic single-field indexes serve; they serve recall's keyword query on one place's facts too
# (keywords array-contains-any, limit n: no order, no other filter). The memory needs three more,
# declared below: the vector index on facts.embedding, a collection-group index on facts.expires_at
# (maintain's expiry query) and a composite index on profiles (channels_active array-contains +
# last_seen_ms desc). Forgetting needs three for its collection-group queries: messages by guild and
# author (newest first), messages by guild, caps by the user digest.

resource "google_firestore_database" "db" {
  count = var.create_firestore_database ? 1 : 0

  project     = var.project_id
  name        = var.firestore_database
  location_id = coalesce(var.firestore_location, var.region)
  type        = "FIRESTORE_NATIVE"

  concurrency_mode                  = "PESSIMISTIC"
  point_in_time_recovery_enablement = var.firestore_point_in_time_recovery ? "POINT_IN_TIME_RECOVERY_ENABLED" : "POINT_IN_TIME_RECOVERY_DISABLED"

  # Safe by default: `terraform destroy` leaves the data (ABANDON) and the API refuses to delete it.
  delete_protection_state = "DELETE_PROTECTION_ENABLED"
  deletion_policy         = "ABANDON"

  depends_on = [google_project_service.apis]
}

locals {
  # Collection groups whose documents carry `expire_at`; Firestore deletes them after that time
  # (typically within a day: readers still filter by time, TTL only bounds storage). Generated from the
  # ports' retentions by `kikimimi settings --write-ttl` (tests/unit/test_stored_concepts.py).
  ttl_collections = toset(jsondecode(file("${path.module}/ttl_collections.json")).ttl_collections)
  # The shared copy's lines and interventions are read only whole, by id: indexing every line's fields
  # would cost a write per field per line and nothing queries them.
  unindexed_window_fields = toset(["lines", "interventions"])
}

resource "google_firestore_field" "ttl" {
  for_each = local.ttl_collections

  project    = var.project_id
  database   = var.firestore_database
  collection = each.key
  field      = "expire_at"

  ttl_config {}

  # No single-field indexes on the expiry timestamp: nothing queries it, and a monotonically
  # increasing indexed field caps write throughput.
  index_config {}

  depends_on = [google_firestore_database.db]
}

resource "google_firestore_field" "window_unindexed" {
  for_each = local.unindexed_window_fields

  project    = var.project_id
  database   = var.firestore_database
  collection = "windows"
  field      = each.key

  index_config {}

  depends_on = [google_firestore_database.db]
}

# Nearest-neighbour search over remembered facts (flat index; distance measure is chosen per query).
resource "google_firestore_index" "facts_embedding" {
  for_each = var.facts_vector_query_scopes

  project     = var.project_id
  database    = var.firestore_database
  collection  = "facts"
  query_scope = each.key

  # Firestore orders a vector index by __name__ before the vector field; declaring it keeps plans clean.
  fields {
    field_path = "__name__"
    order      = "ASCENDING"
  }

  fields {
    field_path = "embedding"
    vector_config {
      dimension = var.facts_embedding_dimension
      flat {}
    }
  }

  depends_on = [google_firestore_database.db]
}

# /kikimimi-me forget and what-do-you-know: collection_group("messages").where(guild_id == guild)
# .where(author_id == user).order_by(created_at desc), the member's buffered messages across a guild's
# channels and threads, newest first, a page at a time (Store.buffered_by; the bot's own lines too).
resource "google_firestore_index" "messages_by_guild_author" {
  project     = var.project_id
  database    = var.firestore_database
  collection  = "messages"
  query_scope = "COLLECTION_GROUP"

  fields {
    field_path = "guild_id"
    order      = "ASCENDING"
  }

  fields {
    field_path = "author_id"
    order      = "ASCENDING"
  }

  fields {
    field_path = "created_at"
    order      = "DESCENDING"
  }

  depends_on = [google_firestore_database.db]
}

# /kikimimi-me forget and what-do-you-know: collection_group("messages").where(guild_id == guild)
# .where(author_id == user).where(state == "pending_edit"), the member's edits of messages not (yet) in
# the buffer, in every place of a guild (Store.pending_edits_by).
resource "google_firestore_index" "pending_edits_by_guild_author" {
  project     = var.project_id
  database    = var.firestore_database
  collection  = "messages"
  query_scope = "COLLECTION_GROUP"

  fields {
    field_path = "guild_id"
    order      = "ASCENDING"
  }

  fields {
    field_path = "author_id"
    order      = "ASCENDING"
  }

  fields {
    field_path = "state"
    order      = "ASCENDING"
  }

  depends_on = [google_firestore_database.db]
}

# The bot removed from a guild: collection_group("messages").where(guild_id == guild), the channels it
# has buffered messages in (Store.guild_places). Automatic single-field indexes are collection-scoped.
resource "google_firestore_field" "messages_guild_id" {
  project    = var.project_id
  database   = var.firestore_database
  collection = "messages"
  field      = "guild_id"

  index_config {
    indexes {
      order       = "ASCENDING"
      query_scope = "COLLECTION"
    }
    indexes {
      order       = "ASCENDING"
      query_scope = "COLLECTION_GROUP"
    }
  }

  depends_on = [google_firestore_database.db]
}

# /kikimimi-me forget: collection_group("caps").where(user == digest), the member's cap documents in
# every place (Store.forget_caps; the document is named by the digest, never by the user id).
resource "google_firestore_field" "caps_user" {
  project    = var.project_id
  database   = var.firestore_database
  collection = "caps"
  field      = "user"

  index_config {
    indexes {
      order       = "ASCENDING"
      query_scope = "COLLECTION"
    }
    indexes {
      order       = "ASCENDING"
      query_scope = "COLLECTION_GROUP"
    }
  }

  depends_on = [google_firestore_database.db]
}

# maintain: collection_group("facts").where(expires_at < now). Automatic single-field indexes are
# collection-scoped; a collection-group query needs this one.
resource "google_firestore_field" "facts_expires_at" {
  project    = var.project_id
  database   = var.firestore_database
  collection = "facts"
  field      = "expires_at"

  index_config {
    indexes {
      order       = "ASCENDING"
      query_scope = "COLLECTION"
    }
    indexes {
      order       = "ASCENDING"
      query_scope = "COLLECTION_GROUP"
    }
  }

  depends_on = [google_firestore_database.db]
}

# Profiles active in a channel, most recent first.
resource "google_firestore_index" "profiles_by_channel" {
  project     = var.project_id
  database    = var.firestore_database
  collection  = "profiles"
  query_scope = "COLLECTION"

  fields {
    field_path   = "channels_active"
    array_config = "CONTAINS"
  }

  fields {
    field_path = "last_seen_ms"
    order      = "DESCENDING"
  }

  depends_on = [google_firestore_database.db]
}
