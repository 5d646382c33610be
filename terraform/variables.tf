# Inputs. Names of settings follow functions/kikimimi/settings.py; the environment variable each one
# becomes is in functions.tf (local.function_env) and is checked by tests/terraform.

# ---------------------------------------------------------------------------------------------------
# Where it runs
# ---------------------------------------------------------------------------------------------------

variable "project_id" {
  type        = string
  description = "Google Cloud project id to deploy into (it must already exist, with billing enabled)."

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{4,28}[a-z0-9]$", var.project_id))
    error_message = "project_id must be a Google Cloud project id: 6-30 lowercase letters, digits or hyphens."
  }
}

variable "region" {
  type        = string
  description = "Region of the functions, queues, scheduler jobs, Eventarc trigger, subnet and NAT (KIKIMIMI_REGION; also the Vertex AI location)."
  default     = "asia-northeast1"

  validation {
    condition     = can(regex("^[a-z]+-[a-z]+[0-9]$", var.region))
    error_message = "region must look like asia-northeast1 or us-central1."
  }
}

variable "zone" {
  type        = string
  description = "Zone of the gateway VM; null means \"<region>-a\"."
  default     = null

  validation {
    condition     = var.zone == null || can(regex("^[a-z]+-[a-z]+[0-9]-[a-z]$", var.zone))
    error_message = "zone must look like asia-northeast1-a."
  }
}

variable "labels" {
  type        = map(string)
  description = "Labels added to every labelled resource (provider default_labels)."
  default     = { app = "kikimimi" }

  validation {
    condition     = alltrue([for k, v in var.labels : can(regex("^[a-z][a-z0-9_-]{0,62}$", k)) && can(regex("^[a-z0-9_-]{0,63}$", v))])
    error_message = "Label keys must start with a lowercase letter; keys and values may hold lowercase letters, digits, _ and - (63 characters at most)."
  }
}

variable "service_agent_wait_seconds" {
  type        = number
  description = "Seconds the first apply waits after creating the Eventarc and Pub/Sub service agents and their roles, before the Eventarc trigger and the grants to the agents (IAM propagation; later applies do not wait)."
  default     = 120

  validation {
    condition     = var.service_agent_wait_seconds >= 0 && var.service_agent_wait_seconds <= 900 && floor(var.service_agent_wait_seconds) == var.service_agent_wait_seconds
    error_message = "service_agent_wait_seconds is a whole number between 0 and 900."
  }
}

# ---------------------------------------------------------------------------------------------------
# Firestore
# ---------------------------------------------------------------------------------------------------

variable "create_firestore_database" {
  type        = bool
  description = "Create the Firestore database. Set false when the project already has it (or import it: terraform import 'google_firestore_database.db[0]' '(default)')."
  default     = true
}

variable "firestore_database" {
  type        = string
  description = "Firestore database id (FIRESTORE_DATABASE)."
  default     = "(default)"

  validation {
    condition     = var.firestore_database == "(default)" || can(regex("^[a-z][a-z0-9-]{2,61}[a-z0-9]$", var.firestore_database))
    error_message = "firestore_database must be \"(default)\" or 4-63 lowercase letters, digits and hyphens."
  }
}

variable "firestore_location" {
  type        = string
  description = "Firestore location (a region or a multi-region such as nam5); null means var.region. It cannot change once the database exists."
  default     = null
}

variable "firestore_point_in_time_recovery" {
  type        = bool
  description = "Keep 7 days of point-in-time recovery for Firestore (small extra storage cost)."
  default     = true
}

variable "facts_embedding_dimension" {
  type        = number
  description = "Dimension of the `embedding` vector of facts documents: the vector index and EMBEDDING_DIMENSION both use it."
  default     = 512

  validation {
    condition     = var.facts_embedding_dimension >= 1 && var.facts_embedding_dimension <= 2048 && floor(var.facts_embedding_dimension) == var.facts_embedding_dimension
    error_message = "Firestore vector indexes take a whole dimension between 1 and 2048."
  }
}

variable "facts_vector_query_scopes" {
  type        = set(string)
  description = "Query scopes of the flat vector index on facts.embedding: COLLECTION serves the nearest-fact query of one channel (memory_channels/{key}/facts), COLLECTION_GROUP queries over every channel's facts."
  default     = ["COLLECTION", "COLLECTION_GROUP"]

  validation {
    condition     = length(var.facts_vector_query_scopes) > 0 && alltrue([for s in var.facts_vector_query_scopes : contains(["COLLECTION", "COLLECTION_GROUP"], s)])
    error_message = "facts_vector_query_scopes holds COLLECTION and/or COLLECTION_GROUP."
  }
}

# ---------------------------------------------------------------------------------------------------
# Discord and persona
# ---------------------------------------------------------------------------------------------------

variable "discord_application_id" {
  type        = string
  description = "Discord application id (= the bot's user id, BOT_USER_ID). Empty until you create the application; the invite URL output then shows a placeholder."
  default     = ""

  validation {
    condition     = can(regex("^([0-9]{17,20})?$", var.discord_application_id))
    error_message = "discord_application_id is a Discord snowflake (17-20 digits) or empty."
  }
}

variable "bot_name" {
  type        = string
  description = "The bot's name as people call it (BOT_NAME)."
  default     = "kikimimi"

  validation {
    condition     = length(trimspace(var.bot_name)) > 0 && length(var.bot_name) <= 32 && !strcontains(var.bot_name, ",")
    error_message = "bot_name must be 1-32 characters without commas."
  }
}

variable "bot_aliases" {
  type        = list(string)
  description = "Other names people use for the bot (BOT_ALIASES); their kana forms, honorifics and stretched forms are read too."
  default     = ["ききみみ", "キキミミ", "聞き耳"]

  validation {
    condition     = alltrue([for a in var.bot_aliases : length(trimspace(a)) > 0 && !strcontains(a, ",")])
    error_message = "Aliases must be non-empty and contain no commas (the list is passed comma-separated)."
  }
}

variable "bot_language" {
  type        = string
  description = "Language of the prompts and replies (BOT_LANGUAGE): auto follows each conversation (the share of Japanese script in its recent lines); ja or en forces one."
  default     = "auto"

  validation {
    condition     = contains(["auto", "ja", "en"], var.bot_language)
    error_message = "bot_language is auto, ja or en."
  }
}

variable "bot_persona" {
  type        = string
  description = "Free persona text added to the prompts (BOT_PERSONA)."
  default     = ""

  validation {
    condition     = length(var.bot_persona) <= 4000
    error_message = "bot_persona is at most 4000 characters (it goes into every prompt)."
  }
}

variable "enabled_channels" {
  type        = list(string)
  description = "Channel ids the bot is on in from the start (ENABLED_CHANNELS); [] (the default): none until a moderator runs /kikimimi enable in a channel; [\"*\"]: every channel it can read."
  default     = []

  validation {
    condition     = alltrue([for c in var.enabled_channels : c == "*" || can(regex("^[0-9]{17,20}$", c))])
    error_message = "enabled_channels holds \"*\" or Discord channel ids (17-20 digits)."
  }
}

variable "webhooks_as_humans" {
  type        = bool
  description = "Treat webhook messages as people's (WEBHOOKS_AS_HUMANS); by default they are bots': context, never answered."
  default     = false
}

variable "bot_keywords" {
  type        = list(string)
  description = "Words that raise the rule score when they appear (BOT_KEYWORDS)."
  default     = []

  validation {
    condition     = alltrue([for k in var.bot_keywords : length(trimspace(k)) > 0 && !strcontains(k, ",")])
    error_message = "Keywords must be non-empty and contain no commas."
  }
}

variable "bot_knowledge_topics" {
  type        = list(string)
  description = "Topics the bot knows about (BOT_KNOWLEDGE_TOPICS)."
  default     = []

  validation {
    condition     = alltrue([for k in var.bot_knowledge_topics : length(trimspace(k)) > 0 && !strcontains(k, ",")])
    error_message = "Topics must be non-empty and contain no commas."
  }
}

variable "allowed_reactions" {
  type        = list(string)
  description = "Emoji the bot may react with (ALLOWED_REACTIONS)."
  default     = ["👍", "👀", "😄", "🙏", "🎉", "🤔"]

  validation {
    condition     = length(var.allowed_reactions) > 0 && alltrue([for r in var.allowed_reactions : length(r) > 0 && !strcontains(r, ",")])
    error_message = "allowed_reactions needs at least one emoji, without commas."
  }
}

# ---------------------------------------------------------------------------------------------------
# Pipeline timings and judgment
# ---------------------------------------------------------------------------------------------------

variable "min_messages" {
  type        = number
  description = "Messages a channel needs in the buffer before a judgment is scheduled (MIN_MESSAGES)."
  default     = 3

  validation {
    condition     = var.min_messages >= 1 && var.min_messages <= 50 && floor(var.min_messages) == var.min_messages
    error_message = "min_messages is a whole number between 1 and 50."
  }
}

variable "judge_timing" {
  type        = string
  description = "When a pause judgment runs: pace (a multiple of the channel's recent gaps) or fixed (MIN_WAIT_SECONDS) (JUDGE_TIMING)."
  default     = "pace"

  validation {
    condition     = contains(["pace", "fixed"], var.judge_timing)
    error_message = "judge_timing is pace or fixed."
  }
}

variable "pace_multiplier" {
  type        = number
  description = "Pause judgment wait as a multiple of the median gap between recent messages (PACE_MULTIPLIER)."
  default     = 3

  validation {
    condition     = var.pace_multiplier > 0 && var.pace_multiplier <= 20
    error_message = "pace_multiplier is above 0 and at most 20."
  }
}

variable "question_watch_seconds" {
  type        = number
  description = "How long people get to answer an open question before the bot judges it; 0 turns watches off (QUESTION_WATCH_SECONDS)."
  default     = 150

  validation {
    condition     = var.question_watch_seconds >= 0 && var.question_watch_seconds <= 3600
    error_message = "question_watch_seconds is between 0 and 3600."
  }
}

variable "llm_judgments_per_hour" {
  type        = number
  description = "At most this many LLM judgments per channel per hour; past it the rules decide (LLM_JUDGMENTS_PER_HOUR)."
  default     = 6

  validation {
    condition     = var.llm_judgments_per_hour >= 0 && var.llm_judgments_per_hour <= 1000 && floor(var.llm_judgments_per_hour) == var.llm_judgments_per_hour
    error_message = "llm_judgments_per_hour is a whole number between 0 and 1000."
  }
}

variable "addressed_per_user_per_minute" {
  type        = number
  description = "At most this many answers to one user's mentions, replies and name calls per channel in any minute; past it one reaction, then silence; 0 means no cap (ADDRESSED_PER_USER_PER_MINUTE)."
  default     = 3

  validation {
    condition     = var.addressed_per_user_per_minute >= 0 && var.addressed_per_user_per_minute <= 60 && floor(var.addressed_per_user_per_minute) == var.addressed_per_user_per_minute
    error_message = "addressed_per_user_per_minute is a whole number between 0 and 60."
  }
}

variable "addressed_per_channel_per_minute" {
  type        = number
  description = "At most this many answers to addressed messages per channel or thread in any minute; 0 means no cap (ADDRESSED_PER_CHANNEL_PER_MINUTE)."
  default     = 10

  validation {
    condition     = var.addressed_per_channel_per_minute >= 0 && var.addressed_per_channel_per_minute <= 600 && floor(var.addressed_per_channel_per_minute) == var.addressed_per_channel_per_minute
    error_message = "addressed_per_channel_per_minute is a whole number between 0 and 600."
  }
}

variable "addressed_cap_reaction" {
  type        = string
  description = "The reaction a capped user gets once per minute; empty means none (ADDRESSED_CAP_REACTION)."
  default     = "⏳"

  validation {
    condition     = length(var.addressed_cap_reaction) <= 32
    error_message = "addressed_cap_reaction is one emoji (at most 32 characters) or empty."
  }
}

variable "llm_calls_per_guild_per_day" {
  type        = number
  description = "LLM calls (judge and reply) one guild may cause per UTC day; past it the bot stays silent and logs llm_budget_reached at ERROR; 0 means no budget (LLM_CALLS_PER_GUILD_PER_DAY)."
  default     = 1000

  validation {
    condition     = var.llm_calls_per_guild_per_day >= 0 && var.llm_calls_per_guild_per_day <= 1000000 && floor(var.llm_calls_per_guild_per_day) == var.llm_calls_per_guild_per_day
    error_message = "llm_calls_per_guild_per_day is a whole number between 0 and 1000000."
  }
}

variable "min_wait_seconds" {
  type        = number
  description = "Quiet time after the last message before the bot judges, with judge_timing = fixed (MIN_WAIT_SECONDS)."
  default     = 300

  validation {
    condition     = var.min_wait_seconds >= 0 && var.min_wait_seconds <= 3600
    error_message = "min_wait_seconds is between 0 and 3600."
  }
}

variable "jitter_ratio" {
  type        = number
  description = "Random spread of the wait, as a fraction of it (JITTER_RATIO)."
  default     = 0.3

  validation {
    condition     = var.jitter_ratio >= 0 && var.jitter_ratio < 1
    error_message = "jitter_ratio is at least 0 and below 1."
  }
}

variable "buffer_ttl_minutes" {
  type        = number
  description = "How long buffered messages count as context (BUFFER_TTL_MINUTES); Firestore's TTL deletes them some time after."
  default     = 30

  validation {
    condition     = var.buffer_ttl_minutes > 0 && var.buffer_ttl_minutes <= 1440
    error_message = "buffer_ttl_minutes is above 0 and at most 1440 (one day)."
  }
}

variable "tombstone_days" {
  type        = number
  description = "How long a deleted message's tombstone refuses a create redelivered after its delete (TOMBSTONE_DAYS): longer than Pub/Sub keeps an unacknowledged message (7 days)."
  default     = 8

  validation {
    condition     = var.tombstone_days > 7 && var.tombstone_days <= 31
    error_message = "tombstone_days is above 7 (Pub/Sub's retention) and at most 31."
  }
}

variable "addressed_max_age_seconds" {
  type        = number
  description = "An addressed message older than this when it arrives or when its answer is due gets no answer (ADDRESSED_MAX_AGE_SECONDS; 0: no limit)."
  default     = 300

  validation {
    condition     = var.addressed_max_age_seconds >= 0
    error_message = "addressed_max_age_seconds is 0 (no limit) or more."
  }
}

variable "reply_max_late_seconds" {
  type        = number
  description = "A judged reply this long past the latest time its judgment planned it for (the trigger or question, the longest pause or the watch, the chosen delay) is skipped, e.g. behind a backlog (REPLY_MAX_LATE_SECONDS; 0: no limit)."
  default     = 600

  validation {
    condition     = var.reply_max_late_seconds >= 0 && var.reply_max_late_seconds <= 86400
    error_message = "reply_max_late_seconds is between 0 (no limit) and 86400."
  }
}

variable "forget_rebuild_seconds" {
  type        = number
  description = "After a delete cleared a channel's summary, it is rebuilt from the chunks left this much later; a bulk delete's forgets share one rebuild (FORGET_REBUILD_SECONDS)."
  default     = 10

  validation {
    condition     = var.forget_rebuild_seconds >= 0 && var.forget_rebuild_seconds <= 3600
    error_message = "forget_rebuild_seconds is between 0 and 3600."
  }
}

variable "context_messages" {
  type        = number
  description = "Messages read as context for a judgment or a reply (CONTEXT_MESSAGES)."
  default     = 20

  validation {
    condition     = var.context_messages >= 1 && var.context_messages <= 200 && floor(var.context_messages) == var.context_messages
    error_message = "context_messages is a whole number between 1 and 200."
  }
}

variable "reply_delay_seconds" {
  type = object({
    min     = number
    max     = number
    default = number
  })
  description = "Delay before a judged reply is posted: the model's choice is clamped to [min, max] (REPLY_DELAY_MIN_SECONDS, REPLY_DELAY_MAX_SECONDS, REPLY_DELAY_DEFAULT_SECONDS)."
  default     = { min = 1, max = 120, default = 4 }

  validation {
    condition     = var.reply_delay_seconds.min >= 0 && var.reply_delay_seconds.min <= 600 && var.reply_delay_seconds.default >= 0 && var.reply_delay_seconds.default <= 600 && var.reply_delay_seconds.max >= 0 && var.reply_delay_seconds.max <= 600
    error_message = "reply_delay_seconds: min, default and max are between 0 and 600."
  }

  validation {
    condition     = var.reply_delay_seconds.min <= var.reply_delay_seconds.default && var.reply_delay_seconds.default <= var.reply_delay_seconds.max
    error_message = "reply_delay_seconds needs min <= default <= max."
  }
}

variable "unanswered_after_seconds" {
  type        = number
  description = "A question unanswered this long raises the rule score (UNANSWERED_AFTER_SECONDS)."
  default     = 90

  validation {
    condition     = var.unanswered_after_seconds >= 0
    error_message = "unanswered_after_seconds is not negative."
  }
}

variable "judge_thresholds" {
  type = object({
    high           = number
    low            = number
    rules          = number
    min_confidence = number
  })
  description = "Rule score above `high` speaks, below `low` stays silent, in between asks the LLM; `rules` decides when no LLM judges; the LLM's answer needs `min_confidence` (JUDGE_HIGH_THRESHOLD, JUDGE_LOW_THRESHOLD, JUDGE_RULES_THRESHOLD, JUDGE_MIN_CONFIDENCE)."
  default     = { high = 80, low = 20, rules = 45, min_confidence = 0.5 }

  validation {
    condition     = var.judge_thresholds.low <= var.judge_thresholds.high && var.judge_thresholds.min_confidence >= 0 && var.judge_thresholds.min_confidence <= 1
    error_message = "judge_thresholds needs low <= high and 0 <= min_confidence <= 1."
  }

  validation {
    condition     = var.judge_thresholds.high >= 0 && var.judge_thresholds.high <= 100 && var.judge_thresholds.low >= 0 && var.judge_thresholds.low <= 100 && var.judge_thresholds.rules >= 0 && var.judge_thresholds.rules <= 100
    error_message = "judge_thresholds: high, low and rules are rule scores between 0 and 100."
  }
}

variable "chattiness" {
  type = object({
    threshold_step = number
    wait_factor    = number
  })
  description = "How far a channel's /kikimimi chattiness moves the bot: quiet raises the three judge thresholds by `threshold_step` and waits `wait_factor` times longer for a pause or an answer, lively lowers and shortens them (CHATTINESS_THRESHOLD_STEP, CHATTINESS_WAIT_FACTOR)."
  default     = { threshold_step = 10, wait_factor = 1.5 }

  validation {
    condition     = var.chattiness.threshold_step >= 0 && var.chattiness.threshold_step <= 50 && var.chattiness.wait_factor >= 1 && var.chattiness.wait_factor <= 4
    error_message = "chattiness: threshold_step is between 0 and 50, wait_factor between 1 and 4."
  }
}

variable "talkativeness_floor" {
  type        = number
  description = "The least share of its unprompted posting a channel keeps where people ignore the bot's posts or ask it to be quiet; 1 turns the drift off (TALKATIVENESS_FLOOR)."
  default     = 0.4

  validation {
    condition     = var.talkativeness_floor >= 0 && var.talkativeness_floor <= 1
    error_message = "talkativeness_floor is a number between 0 and 1."
  }
}

variable "rule_weights" {
  type        = map(number)
  description = "Overrides of the rule weights by rule term (RULE_WEIGHTS, passed as JSON); empty keeps the built-in weights (functions/kikimimi/domain/rules.py DEFAULT_WEIGHTS)."
  default     = {}

  # The terms are the domain's RULE_TERMS (functions/kikimimi/domain/rule_config.py), written here by
  # `kikimimi settings --write-terraform`; tests/unit/test_settings_terraform.py checks they match.
  validation {
    condition     = alltrue([for k, v in var.rule_weights : contains(["mention", "reply_to_bot", "name_call", "engagement", "question", "unanswered_question", "question_waiting", "maybe_answered", "tension", "keyword", "knowledge_topic", "after_silence", "cooldown", "two_people", "not_mentioned", "high_frequency", "decay_mild", "decay_strong", "directed_elsewhere", "closing", "recent_turn", "exchange", "follow_up", "unanswered_address", "other_exchange", "crowded", "participation", "just_answered", "unfinished"], k) && v >= -100 && v <= 100])
    error_message = "rule_weights keys are rule terms (mention, reply_to_bot, name_call, engagement, question, unanswered_question, question_waiting, maybe_answered, tension, keyword, knowledge_topic, after_silence, cooldown, two_people, not_mentioned, high_frequency, decay_mild, decay_strong, directed_elsewhere, closing, recent_turn, exchange, follow_up, unanswered_address, other_exchange, crowded, participation, just_answered, unfinished) and each weight is between -100 and 100."
  }
}

variable "judgment_cache_seconds" {
  type        = number
  description = "How long an LLM judgment of the same conversation is reused (JUDGMENT_CACHE_SECONDS)."
  default     = 3600

  validation {
    condition     = var.judgment_cache_seconds >= 0 && var.judgment_cache_seconds <= 86400
    error_message = "judgment_cache_seconds is between 0 and 86400 (a day)."
  }
}

# ---------------------------------------------------------------------------------------------------
# LLM
# ---------------------------------------------------------------------------------------------------

variable "llm_backend" {
  type        = string
  description = "LLM_BACKEND of the deployed functions: gemini (judge, writer and memory). The code's none (template replies) and offline (local model files) are for replay and the local stack: real channels never get template text, and the functions refuse to start with none."
  default     = "gemini"

  validation {
    condition     = contains(["gemini"], var.llm_backend)
    error_message = "llm_backend is gemini in the cloud: none would post template text to real channels (the functions refuse it), and offline needs model files the functions do not ship."
  }
}

variable "use_vertex_ai" {
  type        = bool
  description = "Call Gemini through Vertex AI with the functions' service accounts (roles/aiplatform.user) instead of an API key; then no Gemini secret is created (USE_VERTEX_AI)."
  default     = false
}

variable "judge_model" {
  type        = string
  description = "Model that judges whether to speak (JUDGE_MODEL)."
  default     = "gemini-2.5-flash-lite"

  validation {
    condition     = can(regex("^[a-z0-9][a-z0-9.\\-]*$", var.judge_model))
    error_message = "judge_model is a model id such as gemini-2.5-flash-lite."
  }
}

variable "reply_model" {
  type        = string
  description = "Model that writes the replies (REPLY_MODEL)."
  default     = "gemini-2.5-flash"

  validation {
    condition     = can(regex("^[a-z0-9][a-z0-9.\\-]*$", var.reply_model))
    error_message = "reply_model is a model id such as gemini-2.5-flash."
  }
}

variable "llm_timeout_seconds" {
  type        = number
  description = "Timeout of one LLM call (LLM_TIMEOUT_SECONDS); keep it well below the function timeouts."
  default     = 20

  validation {
    condition     = var.llm_timeout_seconds > 0 && var.llm_timeout_seconds <= 60
    error_message = "llm_timeout_seconds is above 0 and at most 60."
  }
}

variable "reply_max_tokens" {
  type        = number
  description = "Output token limit of a full reply (REPLY_MAX_TOKENS)."
  default     = 400

  validation {
    condition     = var.reply_max_tokens >= 16 && var.reply_max_tokens <= 8192 && floor(var.reply_max_tokens) == var.reply_max_tokens
    error_message = "reply_max_tokens is a whole number between 16 and 8192."
  }
}

variable "short_ack_max_tokens" {
  type        = number
  description = "Output token limit of a short acknowledgement (SHORT_ACK_MAX_TOKENS)."
  default     = 40

  validation {
    condition     = var.short_ack_max_tokens >= 8 && var.short_ack_max_tokens <= 1024 && floor(var.short_ack_max_tokens) == var.short_ack_max_tokens
    error_message = "short_ack_max_tokens is a whole number between 8 and 1024."
  }
}

variable "writer_thinking_budget" {
  type        = number
  description = "Thinking tokens a reply may use on top of its cap; 0 none, -1 the model decides (WRITER_THINKING_BUDGET)."
  default     = 0

  validation {
    condition     = var.writer_thinking_budget >= -1 && var.writer_thinking_budget <= 24576 && floor(var.writer_thinking_budget) == var.writer_thinking_budget
    error_message = "writer_thinking_budget is a whole number between -1 and 24576."
  }
}

variable "judge_max_tokens" {
  type        = number
  description = "Output token limit of a judgment (JSON) (JUDGE_MAX_TOKENS)."
  default     = 256

  validation {
    condition     = var.judge_max_tokens >= 64 && var.judge_max_tokens <= 2048 && floor(var.judge_max_tokens) == var.judge_max_tokens
    error_message = "judge_max_tokens is a whole number between 64 and 2048."
  }
}

variable "judge_thinking_budget" {
  type        = number
  description = "Thinking tokens of a judgment; 0 none, -1 the model decides (JUDGE_THINKING_BUDGET)."
  default     = 0

  validation {
    condition     = var.judge_thinking_budget >= -1 && var.judge_thinking_budget <= 24576 && floor(var.judge_thinking_budget) == var.judge_thinking_budget
    error_message = "judge_thinking_budget is a whole number between -1 and 24576."
  }
}

variable "memory_thinking_budget" {
  type        = number
  description = "Thinking tokens of a summary, reflection or server memory; 0 none, -1 the model decides (MEMORY_THINKING_BUDGET)."
  default     = 0

  validation {
    condition     = var.memory_thinking_budget >= -1 && var.memory_thinking_budget <= 24576 && floor(var.memory_thinking_budget) == var.memory_thinking_budget
    error_message = "memory_thinking_budget is a whole number between -1 and 24576."
  }
}

variable "summary_max_tokens" {
  type        = number
  description = "Output token limit of a channel summary (SUMMARY_MAX_TOKENS)."
  default     = 800

  validation {
    condition     = var.summary_max_tokens >= 64 && var.summary_max_tokens <= 8192 && floor(var.summary_max_tokens) == var.summary_max_tokens
    error_message = "summary_max_tokens is a whole number between 64 and 8192."
  }
}

variable "reflect_max_tokens" {
  type        = number
  description = "Output token limit of a reflection (facts, profiles) (REFLECT_MAX_TOKENS)."
  default     = 1500

  validation {
    condition     = var.reflect_max_tokens >= 64 && var.reflect_max_tokens <= 8192 && floor(var.reflect_max_tokens) == var.reflect_max_tokens
    error_message = "reflect_max_tokens is a whole number between 64 and 8192."
  }
}

variable "guild_memory_max_tokens" {
  type        = number
  description = "Output token limit of the server memory (GUILD_MEMORY_MAX_TOKENS)."
  default     = 1000

  validation {
    condition     = var.guild_memory_max_tokens >= 64 && var.guild_memory_max_tokens <= 8192 && floor(var.guild_memory_max_tokens) == var.guild_memory_max_tokens
    error_message = "guild_memory_max_tokens is a whole number between 64 and 8192."
  }
}

variable "reply_max_messages" {
  type        = number
  description = "A long reply is split at Discord's 2,000 characters into at most this many messages, then cut (REPLY_MAX_MESSAGES)."
  default     = 3

  validation {
    condition     = var.reply_max_messages >= 1 && var.reply_max_messages <= 10 && floor(var.reply_max_messages) == var.reply_max_messages
    error_message = "reply_max_messages is a whole number between 1 and 10."
  }
}

variable "link_allowlist" {
  type        = list(string)
  description = "Hosts (suffixes, e.g. \"python.org\") the bot may link to although nobody posted the link (LINK_ALLOWLIST); other links it writes must have appeared in the chat or memory."
  default     = []

  validation {
    condition     = alltrue([for h in var.link_allowlist : can(regex("^(\\*\\.)?[a-z0-9.-]+$", h))])
    error_message = "link_allowlist holds lower-case host names or suffixes (like \"python.org\" or \"*.github.io\"), no scheme or path."
  }
}

# ---------------------------------------------------------------------------------------------------
# Memory (summaries, reflections, facts, guild memory)
# ---------------------------------------------------------------------------------------------------

variable "memory_enabled" {
  type        = bool
  description = "Keep channel summaries, facts and guild memory (MEMORY_ENABLED)."
  default     = true
}

variable "fact_lifetime" {
  type = object({
    half_life_days = optional(number, 30)
    min_score      = optional(number, 0.05)
  })
  description = "How long a remembered fact lasts: its weight halves every half_life_days (FACT_HALF_LIFE_DAYS) and it is removed below min_score (FACT_MIN_SCORE); /kikimimi-me privacy tells members the result."
  default     = {}
  validation {
    condition     = var.fact_lifetime.half_life_days > 0 && var.fact_lifetime.half_life_days <= 3650
    error_message = "fact_lifetime.half_life_days is more than 0 and at most 3650."
  }
  validation {
    condition     = var.fact_lifetime.min_score >= 0 && var.fact_lifetime.min_score <= 1
    error_message = "fact_lifetime.min_score is between 0 and 1."
  }
}

variable "proactive_enabled" {
  type        = bool
  description = "Bring up a remembered fact when a silent room wakes up on its topic (PROACTIVE_ENABLED)."
  default     = true
}

variable "grounding" {
  type        = bool
  description = "Let the writer look up factual questions with Google Search grounding and cite it (GROUNDING); per server: /kikimimi grounding. Billed apart; see docs/how-it-works.md for Google's display terms."
  default     = false
}

variable "memory_model" {
  type        = string
  description = "Model that writes summaries, reflections and guild memory (MEMORY_MODEL)."
  default     = "gemini-2.5-flash-lite"

  validation {
    condition     = can(regex("^[a-z0-9][a-z0-9.\\-]*$", var.memory_model))
    error_message = "memory_model is a model id such as gemini-2.5-flash-lite."
  }
}

variable "embedding_backend" {
  type        = string
  description = "Embeddings of facts (EMBEDDING_BACKEND): gemini (API key or Vertex AI). The offline usem model runs only in the local stack (dev/kikimimi_dev/adapters), which is never deployed."
  default     = "gemini"

  validation {
    condition     = contains(["gemini"], var.embedding_backend)
    error_message = "embedding_backend is gemini: the offline usem model is the local stack's, never deployed."
  }
}

variable "embedding_model" {
  type        = string
  description = "Gemini embedding model (EMBEDDING_MODEL); its output dimension is facts_embedding_dimension."
  default     = "gemini-embedding-001"

  validation {
    condition     = can(regex("^[a-z0-9][a-z0-9.\\-]*$", var.embedding_model))
    error_message = "embedding_model is a model id such as gemini-embedding-001."
  }
}

# ---------------------------------------------------------------------------------------------------
# Names shared with the code (defaults = the defaults of Settings; tests/terraform checks they agree)
# ---------------------------------------------------------------------------------------------------

variable "pubsub_topic_name" {
  type        = string
  description = "Topic the gateway publishes Discord messages to (PUBSUB_TOPIC)."
  default     = "kikimimi-messages"

  validation {
    condition     = can(regex("^[a-zA-Z][a-zA-Z0-9._~%+-]{2,254}$", var.pubsub_topic_name))
    error_message = "pubsub_topic_name must be a valid Pub/Sub topic id."
  }
}

variable "judge_queue_name" {
  type        = string
  description = "Cloud Tasks queue of judgment tasks (JUDGE_QUEUE). A deleted queue name cannot be reused for about 7 days."
  default     = "kikimimi-judge"

  validation {
    condition     = can(regex("^[a-zA-Z0-9-]{1,100}$", var.judge_queue_name))
    error_message = "Queue names hold letters, digits and hyphens (100 at most)."
  }
}

variable "reply_queue_name" {
  type        = string
  description = "Cloud Tasks queue of reply tasks (REPLY_QUEUE)."
  default     = "kikimimi-reply"

  validation {
    condition     = can(regex("^[a-zA-Z0-9-]{1,100}$", var.reply_queue_name))
    error_message = "Queue names hold letters, digits and hyphens (100 at most)."
  }
}

variable "memory_queue_name" {
  type        = string
  description = "Cloud Tasks queue of memory tasks (summaries, reflections, fact maintenance fan-out)."
  default     = "kikimimi-memory"

  validation {
    condition     = can(regex("^[a-zA-Z0-9-]{1,100}$", var.memory_queue_name))
    error_message = "Queue names hold letters, digits and hyphens (100 at most)."
  }
}

variable "discord_token_secret_id" {
  type        = string
  description = "Secret Manager secret that holds the Discord bot token (filled by the operator, never by Terraform)."
  default     = "kikimimi-discord-token"

  validation {
    condition     = can(regex("^[a-zA-Z0-9_-]{1,255}$", var.discord_token_secret_id))
    error_message = "Secret ids hold letters, digits, _ and -."
  }
}

variable "gemini_api_key_secret_id" {
  type        = string
  description = "Secret Manager secret that holds the Gemini API key (not created when use_vertex_ai = true)."
  default     = "kikimimi-gemini-api-key"

  validation {
    condition     = can(regex("^[a-zA-Z0-9_-]{1,255}$", var.gemini_api_key_secret_id))
    error_message = "Secret ids hold letters, digits, _ and -."
  }
}

# ---------------------------------------------------------------------------------------------------
# Functions
# ---------------------------------------------------------------------------------------------------

variable "python_runtime" {
  type        = string
  description = "Cloud Functions Python runtime of every function."
  default     = "python311"

  validation {
    condition     = can(regex("^python3(11|12|13)$", var.python_runtime))
    error_message = "python_runtime is python311, python312 or python313 (the project needs Python 3.11+)."
  }
}

variable "function_overrides" {
  type = map(object({
    memory          = optional(string)
    timeout_seconds = optional(number)
    max_instances   = optional(number)
    min_instances   = optional(number)
  }))
  description = "Per-function overrides of memory (e.g. \"1Gi\"), timeout, max and min instances; keys are function names (ingest, judge, reply, summarize, forget, reflect, maintain)."
  default     = {}

  validation {
    condition     = alltrue([for k, v in var.function_overrides : contains(["ingest", "judge", "reply", "summarize", "forget", "reflect", "maintain"], k)])
    error_message = "function_overrides keys are ingest, judge, reply, summarize, forget, reflect or maintain."
  }

  validation {
    condition = alltrue([for k, v in var.function_overrides : (
      (v.timeout_seconds == null ? true : (v.timeout_seconds >= 15 && v.timeout_seconds <= 540)) &&
      (v.max_instances == null ? true : (v.max_instances >= 1 && v.max_instances <= 100)) &&
      (v.min_instances == null ? true : (v.min_instances >= 0 && v.min_instances <= 5)) &&
      (v.memory == null ? true : can(regex("^[0-9]+(Mi|Gi|M|G)$", v.memory)))
    )])
    error_message = "timeout_seconds is 15-540 (15 s: Cloud Tasks' shortest dispatch deadline, which follows it; event functions allow 540 s), max_instances 1-100, min_instances 0-5, memory like 512Mi or 1Gi."
  }
}

# ---------------------------------------------------------------------------------------------------
# Ingest delivery (Pub/Sub → Eventarc → ingest)
# ---------------------------------------------------------------------------------------------------

variable "dead_letter_max_delivery_attempts" {
  type        = number
  description = "Deliveries of one Pub/Sub message to ingest before it goes to the dead-letter topic."
  default     = 10

  validation {
    condition     = var.dead_letter_max_delivery_attempts >= 5 && var.dead_letter_max_delivery_attempts <= 100
    error_message = "Pub/Sub takes 5 to 100 delivery attempts."
  }
}

variable "attach_dead_letter_with_gcloud" {
  type        = bool
  description = "Run `gcloud pubsub subscriptions update` during apply to give the Eventarc-managed subscription its dead-letter topic and retry policy (the provider cannot set them). Needs gcloud on the machine running terraform; when false, run the command from the `ingest_dead_letter_command` output yourself."
  default     = true
}

# ---------------------------------------------------------------------------------------------------
# Scheduler (memory work)
# ---------------------------------------------------------------------------------------------------

variable "scheduler_time_zone" {
  type        = string
  description = "Time zone of the Cloud Scheduler cron expressions."
  default     = "Asia/Tokyo"

  validation {
    condition     = can(regex("^[A-Za-z_]+(/[A-Za-z0-9_+-]+)*$", var.scheduler_time_zone))
    error_message = "scheduler_time_zone is a tz database name such as Asia/Tokyo or UTC."
  }
}

variable "guild_memory_schedule" {
  type        = string
  description = "Cron schedule of the guild memory job (maintain function, job guild_memory)."
  default     = "0 * * * *"

  validation {
    condition     = length(split(" ", trimspace(var.guild_memory_schedule))) == 5
    error_message = "guild_memory_schedule is a 5-field cron expression."
  }
}

variable "fact_maintenance_schedule" {
  type        = string
  description = "Cron schedule of the fact maintenance job (maintain function, job fact_maintenance)."
  default     = "30 4 * * *"

  validation {
    condition     = length(split(" ", trimspace(var.fact_maintenance_schedule))) == 5
    error_message = "fact_maintenance_schedule is a 5-field cron expression."
  }
}

variable "scheduler_paused" {
  type        = bool
  description = "Create the scheduler jobs paused (e.g. while the memory functions are not ready)."
  default     = false
}

# ---------------------------------------------------------------------------------------------------
# Gateway VM
# ---------------------------------------------------------------------------------------------------

variable "gateway_enabled" {
  type        = bool
  description = "Run the Discord gateway VM (without it nothing publishes messages)."
  default     = true
}

variable "gateway_machine_type" {
  type        = string
  description = "Machine type of the gateway VM (e2-micro is in the free tier only in us-west1, us-central1 and us-east1)."
  default     = "e2-micro"

  validation {
    condition     = can(regex("^[a-z0-9]+-[a-z0-9-]+$", var.gateway_machine_type))
    error_message = "gateway_machine_type is a machine type such as e2-micro."
  }
}

variable "gateway_image" {
  type        = string
  description = "Boot image of the gateway VM."
  default     = "debian-cloud/debian-12"
}

variable "gateway_disk_size_gb" {
  type        = number
  description = "Boot disk size of the gateway VM in GB."
  default     = 10

  validation {
    condition     = var.gateway_disk_size_gb >= 10 && var.gateway_disk_size_gb <= 100
    error_message = "gateway_disk_size_gb is between 10 and 100."
  }
}

variable "gateway_shard_count" {
  type        = number
  description = "Discord shards in total (SHARD_COUNT); 0 lets Discord recommend. One VM runs the shards in gateway_shard_ids."
  default     = 0

  validation {
    condition     = var.gateway_shard_count >= 0 && floor(var.gateway_shard_count) == var.gateway_shard_count
    error_message = "gateway_shard_count is a whole number, 0 or more."
  }
}

variable "gateway_shard_ids" {
  type        = list(number)
  description = "Shards this VM runs (SHARD_IDS); empty runs them all."
  default     = []

  validation {
    condition     = alltrue([for id in var.gateway_shard_ids : id >= 0 && floor(id) == id && (var.gateway_shard_count == 0 || id < var.gateway_shard_count)])
    error_message = "Shard ids are whole numbers below gateway_shard_count."
  }
}

variable "gateway_allow_dms" {
  type        = bool
  description = "Let the gateway forward direct messages to the bot (ALLOW_DMS)."
  default     = false
}

variable "gateway_backlog" {
  type        = number
  description = "Messages the gateway holds in memory while Pub/Sub is unreachable; past it the oldest are dropped (GATEWAY_BACKLOG)."
  default     = 10000

  validation {
    condition     = var.gateway_backlog >= 100 && var.gateway_backlog <= 1000000 && floor(var.gateway_backlog) == var.gateway_backlog
    error_message = "gateway_backlog is a whole number between 100 and 1000000."
  }
}

variable "gateway_recreate_on_source_change" {
  type        = bool
  description = "Recreate the gateway VM when the source bundle changes, so that it boots the new code (a minute of gateway downtime). When false, reset the VM yourself after an update."
  default     = true
}

variable "gateway_subnet_cidr" {
  type        = string
  description = "IP range of the gateway's subnet (egress only, through Cloud NAT)."
  default     = "10.64.0.0/28"

  validation {
    condition     = can(cidrhost(var.gateway_subnet_cidr, 0))
    error_message = "gateway_subnet_cidr is an IPv4 CIDR block."
  }
}

variable "allow_iap_ssh" {
  type        = bool
  description = "Allow SSH to the gateway through Identity-Aware Proxy only (35.235.240.0/20, port 22, OS Login). Off by default: the VM has no ingress at all."
  default     = false
}

# ---------------------------------------------------------------------------------------------------
# Observability
# ---------------------------------------------------------------------------------------------------

variable "alert_email" {
  type        = string
  description = "E-mail address that receives the alerts (required: alerts that reach nobody are an outage nobody hears of)."

  validation {
    condition     = can(regex("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$", var.alert_email))
    error_message = "alert_email is required: the e-mail address the alerts go to (e.g. ops@example.com)."
  }
}

variable "function_error_ratio_threshold" {
  type        = number
  description = "Alert when more than this fraction of a function's requests fail (5xx) over 10 minutes, and at least function_error_min_failures of them."
  default     = 0.1

  validation {
    condition     = var.function_error_ratio_threshold > 0 && var.function_error_ratio_threshold < 1
    error_message = "function_error_ratio_threshold is between 0 and 1."
  }
}

variable "function_error_min_failures" {
  type        = number
  description = "The 5xx alert needs at least this many failed requests of a function over 10 minutes (a ratio alone pages on 1 failure out of 1)."
  default     = 5

  validation {
    condition     = var.function_error_min_failures >= 1 && floor(var.function_error_min_failures) == var.function_error_min_failures
    error_message = "function_error_min_failures is a whole number of at least 1."
  }
}

variable "gateway_silence_minutes" {
  type        = number
  description = "Alert when the gateway has logged no heartbeat for this many minutes."
  default     = 10

  validation {
    condition     = var.gateway_silence_minutes >= 5 && var.gateway_silence_minutes <= 1440
    error_message = "gateway_silence_minutes is between 5 and 1440."
  }
}
