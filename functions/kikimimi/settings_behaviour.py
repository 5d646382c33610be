"""The catalogue of settings about behaviour: persona, timings, judgment, the LLM, memory."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from kikimimi.settings_fields import DAY_MINUTES, HOUR, rule_terms, section, setting

LLM_BACKENDS = ("none", "offline", "gemini")  # the one list: LLM_BACKEND's choices; bootstrap builds each


@dataclass(frozen=True, repr=False)
class BehaviourFields:
    """How the bot behaves (the later tables of docs/settings.md; each field takes the group of the
    `section(...)` call above it)."""

    section("Persona")
    bot_name: str = setting("kikimimi", "BOT_NAME", "the bot's name as people call it")
    bot_aliases: tuple[str, ...] = setting(
        ("ききみみ", "キキミミ", "聞き耳"),
        "BOT_ALIASES",
        "other names people call the bot (their kana forms, honorifics and stretched forms are read too)",
    )
    bot_user_id: str = setting(
        "", "BOT_USER_ID", "the bot's Discord user id (its own messages are not judged)"
    )
    language: str = setting(
        "auto",
        "BOT_LANGUAGE",
        choices=("auto", "ja", "en"),
        doc="language of prompts and replies; auto: a reply follows the message it answers, "
        "else the recent lines",
    )
    persona: str = setting(
        "",
        "BOT_PERSONA",
        "free persona text added to every prompt; a channel's /kikimimi persona line adds to it",
    )
    enabled_channels: tuple[str, ...] = setting(
        (),
        "ENABLED_CHANNELS",
        doc='channel ids on before an admin\'s /kikimimi enable|disable there; empty: none; "*": every one',
    )
    webhooks_as_humans: bool = setting(
        False,
        "WEBHOOKS_AS_HUMANS",
        doc="webhook messages count as people's (otherwise as bots': context, never judged or answered)",
    )
    section("Pipeline timings")
    min_messages: int = setting(
        3, "MIN_MESSAGES", "buffered messages a place needs before a pause judgment", ge=1, le=50
    )
    judge_timing: str = setting(
        "pace",
        "JUDGE_TIMING",
        choices=("pace", "fixed"),
        doc="pace: wait a multiple of the room's recent gaps; fixed: wait MIN_WAIT_SECONDS",
    )
    min_wait_seconds: float = setting(
        300.0, "MIN_WAIT_SECONDS", "the pause before a judgment with JUDGE_TIMING=fixed", ge=0, le=HOUR
    )
    pace_multiplier: float = setting(
        3.0,
        "PACE_MULTIPLIER",
        gt=0,
        le=20,
        doc="the pause as a multiple of the median gap between recent human messages",
    )
    pace_min_seconds: float = setting(30.0, "PACE_MIN_SECONDS", "shortest paced pause", ge=0, le=HOUR)
    pace_max_seconds: float = setting(300.0, "PACE_MAX_SECONDS", "longest paced pause", ge=0, le=HOUR)
    pace_sample: int = setting(5, "PACE_SAMPLE", "recent human messages the pace reads", ge=2, le=100)
    jitter_ratio: float = setting(
        0.3, "JITTER_RATIO", "random spread of a pause, as a fraction of it", ge=0, lt=1
    )
    question_watch_seconds: float = setting(
        150.0,
        "QUESTION_WATCH_SECONDS",
        ge=0,
        le=HOUR,
        doc="time people get to answer an open question before the bot judges it; 0: no watches",
    )
    question_watch_pace: float = setting(
        2.0,
        "QUESTION_WATCH_PACE",
        ge=0,
        le=20,
        doc="in a slower room, the watch as a multiple of its median gap",
    )
    question_watch_max_seconds: float = setting(
        900.0, "QUESTION_WATCH_MAX_SECONDS", "longest question watch", ge=0, le=2 * HOUR
    )
    question_silence_seconds: float = setting(
        540.0,
        "QUESTION_SILENCE_SECONDS",
        ge=0,
        le=2 * HOUR,
        doc="a question met by silence is judged again this long after it was asked",
    )
    answer_link_confidence: float = setting(
        0.5,
        "ANSWER_LINK_CONFIDENCE",
        gt=0,
        le=1,
        doc="how sure the reply-structure reader must be that a line answers a question to settle it",
    )
    answer_unsure_confidence: float = setting(
        0.25,
        "ANSWER_UNSURE_CONFIDENCE",
        ge=0,
        le=1,
        doc="from this confidence up to ANSWER_LINK_CONFIDENCE a line may answer: the LLM decides, "
        "not the rules",
    )
    question_max_age_minutes: float = setting(
        30.0,
        "QUESTION_MAX_AGE_MINUTES",
        gt=0,
        le=DAY_MINUTES,
        doc="a question older than this is no longer watched",
    )
    buffer_ttl_minutes: float = setting(
        30.0, "BUFFER_TTL_MINUTES", "how long buffered messages count as context", gt=0, le=DAY_MINUTES
    )
    # Longer than Pub/Sub keeps an unacknowledged envelope (7 days): a create redelivered after its
    # delete still finds the tombstone.
    tombstone_days: float = setting(
        8.0, "TOMBSTONE_DAYS", "how long a deleted message's tombstone refuses a late create", gt=7, le=31
    )
    addressed_max_age_seconds: float = setting(
        300.0,
        "ADDRESSED_MAX_AGE_SECONDS",
        ge=0,
        doc="an addressed message older than this gets no answer; 0: no limit",
    )
    reply_max_late_seconds: float = setting(
        600.0,
        "REPLY_MAX_LATE_SECONDS",
        ge=0,
        le=DAY_MINUTES * 60,
        doc="a judged reply this late (behind a backlog) is skipped; 0: no limit",
    )
    forget_rebuild_seconds: float = setting(
        10.0,
        "FORGET_REBUILD_SECONDS",
        ge=0,
        le=HOUR,
        doc="a summary a forget cleared is rebuilt this much later (one rebuild per bulk delete)",
    )
    context_messages: int = setting(
        20, "CONTEXT_MESSAGES", "messages read as context for a judgment or reply", ge=1, le=200
    )
    reply_delay_min_seconds: float = setting(
        1.0, "REPLY_DELAY_MIN_SECONDS", "shortest delay before a judged reply", ge=0, le=600
    )
    reply_delay_max_seconds: float = setting(
        600.0, "REPLY_DELAY_MAX_SECONDS", "longest delay before a judged reply", ge=0, le=600
    )
    reply_delay_default_seconds: float = setting(
        4.0,
        "REPLY_DELAY_DEFAULT_SECONDS",
        ge=0,
        le=600,
        doc="delay of a reply the rules decide (the LLM names its own)",
    )
    section("Judgment")
    high_threshold: float = setting(
        80.0,
        "JUDGE_HIGH_THRESHOLD",
        ge=0,
        le=100,
        doc="rule score at or above which the bot speaks without asking the LLM",
    )
    low_threshold: float = setting(
        20.0, "JUDGE_LOW_THRESHOLD", "rule score below which the bot stays silent", ge=0, le=100
    )
    rules_threshold: float = setting(
        45.0, "JUDGE_RULES_THRESHOLD", "rule score to speak when no LLM judges", ge=0, le=100
    )
    min_confidence: float = setting(0.5, "JUDGE_MIN_CONFIDENCE", "confidence the LLM's yes needs", ge=0, le=1)
    # Ten points is about one rule term: lively speaks where one term short of normal's line, quiet
    # needs one term more (tuned so a lively channel is noticeably livelier, not a different bot).
    chattiness_threshold_step: float = setting(
        10.0,
        "CHATTINESS_THRESHOLD_STEP",
        ge=0,
        le=50,
        doc="/kikimimi chattiness: quiet raises judge thresholds by this (confidence: 1/100), lively lowers",
    )
    chattiness_wait_factor: float = setting(
        1.5,
        "CHATTINESS_WAIT_FACTOR",
        ge=1,
        le=4,
        doc="… and quiet waits this many times longer for a pause or an answer (to the ceilings), "
        "lively less",
    )
    talkativeness_floor: float = setting(
        0.4, "TALKATIVENESS_FLOOR", "least share of unprompted posts kept if ignored (1: fixed)", ge=0, le=1
    )
    unanswered_after_seconds: float = setting(
        90.0, "UNANSWERED_AFTER_SECONDS", "a question unanswered this long raises the score", ge=0
    )
    rule_time_scale: float = setting(
        1.0,
        "RULE_TIME_SCALE",
        gt=0,
        le=100,
        doc="scales every rule time window (the demo runs minutes as seconds)",
    )
    rule_weights: Mapping[str, float] = setting(
        {}, "RULE_WEIGHTS", "JSON object overriding rule weights by term", ge=-100, le=100, keys=rule_terms
    )
    keywords: tuple[str, ...] = setting((), "BOT_KEYWORDS", "words that raise the rule score")
    knowledge_topics: tuple[str, ...] = setting((), "BOT_KNOWLEDGE_TOPICS", "topics the bot knows about")
    allowed_reactions: tuple[str, ...] = setting(
        ("👍", "👀", "😄", "🙏", "🎉", "🤔"), "ALLOWED_REACTIONS", "emoji the bot may react with"
    )
    # An hour: the key is what the conversation says, and the hourly LLM budget counts cached judgments.
    judgment_cache_seconds: float = setting(
        HOUR,
        "JUDGMENT_CACHE_SECONDS",
        ge=0,
        le=24 * HOUR,
        doc="an LLM judgment of the same conversation is reused this long",
    )
    llm_judgments_per_hour: int = setting(
        6,
        "LLM_JUDGMENTS_PER_HOUR",
        ge=0,
        le=1000,
        doc="LLM judgments per place and hour; past it the rules decide",
    )
    llm_judgments_per_100_messages: float = setting(
        8.0,
        "LLM_JUDGMENTS_PER_100_MESSAGES",
        ge=0,
        le=1000,
        doc="in a quiet room, at most this many per 100 human messages",
    )
    llm_watch_judgments_per_hour: int = setting(
        3,
        "LLM_WATCH_JUDGMENTS_PER_HOUR",
        ge=0,
        le=1000,
        doc="LLM judgments of question watches per place and hour, kept apart from the budget above",
    )
    llm_tension_judgments_per_hour: int = setting(
        4,
        "LLM_TENSION_JUDGMENTS_PER_HOUR",
        ge=0,
        le=1000,
        doc="LLM judgments per place and hour of a room in a misunderstanding or conflict, kept apart too",
    )
    addressed_per_user_per_minute: int = setting(
        3,
        "ADDRESSED_PER_USER_PER_MINUTE",
        ge=0,
        le=60,
        doc="answers to one user's mentions and name calls per place and minute; 0: no cap",
    )
    addressed_per_channel_per_minute: int = setting(
        10,
        "ADDRESSED_PER_CHANNEL_PER_MINUTE",
        ge=0,
        le=600,
        doc="answers to addressed messages per place and minute; 0: no cap",
    )
    addressed_cap_reaction: str = setting(
        "⏳", "ADDRESSED_CAP_REACTION", "a capped user's one reaction a minute; empty: none"
    )
    llm_calls_per_guild_per_day: int = setting(
        1000,
        "LLM_CALLS_PER_GUILD_PER_DAY",
        ge=0,
        le=1_000_000,
        doc="judge and writer calls per guild and UTC day; past it silence; 0: no budget",
    )
    section("LLM")
    llm_backend: str = setting(
        "none",
        "LLM_BACKEND",
        choices=LLM_BACKENDS,
        doc="judge and writer: gemini, offline (local model) or none (rules, template writer; not in gcp)",
    )
    offline_judge: bool = setting(False, "OFFLINE_JUDGE", "let the offline model judge the middle band too")
    judge_model: str = setting("gemini-2.5-flash-lite", "JUDGE_MODEL", "the Gemini model that judges")
    reply_model: str = setting("gemini-2.5-flash", "REPLY_MODEL", "the Gemini model that writes replies")
    gemini_api_key: str = setting("", "GEMINI_API_KEY", "Gemini API key (a secret)", secret=True)
    gemini_base_url: str = setting("", "GEMINI_BASE_URL", "another Gemini endpoint (the local stand-in)")
    use_vertex_ai: bool = setting(False, "USE_VERTEX_AI", "call Gemini through Vertex AI instead of a key")
    llm_timeout_seconds: float = setting(
        20.0, "LLM_TIMEOUT_SECONDS", "timeout of one Gemini call", gt=0, le=60
    )
    reply_max_tokens: int = setting(
        400,
        "REPLY_MAX_TOKENS",
        "output tokens of a full reply (one cut off there ends at its last whole sentence)",
        ge=16,
        le=8192,
    )
    reply_max_messages: int = setting(
        3,
        "REPLY_MAX_MESSAGES",
        ge=1,
        le=10,
        doc="a long reply is split at 2,000 characters into at most this many messages",
    )
    link_allowlist: tuple[str, ...] = setting(
        (), "LINK_ALLOWLIST", "hosts the bot may link to although nobody posted them"
    )
    # Off: a grounded prompt is billed apart (docs/cost.md); a server's admins may turn it on for theirs.
    grounding: bool = setting(
        False,
        "GROUNDING",
        "the writer may look up factual questions on the web and cite it; per server: /kikimimi grounding",
    )
    short_ack_max_tokens: int = setting(
        40, "SHORT_ACK_MAX_TOKENS", "output tokens of a short acknowledgement", ge=8, le=1024
    )
    # Gemini 2.5 Flash thinks by default and bills the thoughts as output: a chat line needs none.
    writer_thinking_budget: int = setting(
        0,
        "WRITER_THINKING_BUDGET",
        ge=-1,
        le=24576,
        doc="thinking tokens a reply may use on top of its cap (0: none, -1: the model decides)",
    )
    judge_max_tokens: int = setting(
        256, "JUDGE_MAX_TOKENS", "output tokens of a judgment (JSON)", ge=64, le=2048
    )
    judge_thinking_budget: int = setting(
        0,
        "JUDGE_THINKING_BUDGET",
        "thinking tokens of a judgment (0: none, -1: the model decides)",
        ge=-1,
        le=24576,
    )
    section("Memory")
    memory_enabled: bool = setting(True, "MEMORY_ENABLED", "keep channel summaries, facts and guild memory")
    memory_queue: str = setting(
        "kikimimi-memory", "MEMORY_QUEUE", "queue of summarize, reflect and forget tasks"
    )
    summarize_url: str = setting("", "SUMMARIZE_URL", "the summarize function's URL")
    reflect_url: str = setting("", "REFLECT_URL", "the reflect function's URL")
    forget_url: str = setting("", "FORGET_URL", "the forget function's URL (deletes and edits reach memory)")
    maintain_url: str = setting("", "MAINTAIN_URL", "the maintain function's URL (Cloud Scheduler's target)")
    memory_model: str = setting(
        "gemini-2.5-flash-lite", "MEMORY_MODEL", "the Gemini model that writes memory"
    )
    memory_thinking_budget: int = setting(
        0,
        "MEMORY_THINKING_BUDGET",
        "thinking tokens of a memory call (0: none, -1: the model decides)",
        ge=-1,
        le=24576,
    )
    summary_max_tokens: int = setting(800, "SUMMARY_MAX_TOKENS", "output tokens of a summary", ge=64, le=8192)
    reflect_max_tokens: int = setting(
        1500, "REFLECT_MAX_TOKENS", "output tokens of a reflection (facts, profiles)", ge=64, le=8192
    )
    guild_memory_max_tokens: int = setting(
        1000, "GUILD_MEMORY_MAX_TOKENS", "output tokens of the server memory", ge=64, le=8192
    )
    summary_every_messages: int = setting(
        20, "SUMMARY_EVERY_MESSAGES", "summarize after this many messages", ge=1, le=1000
    )
    summary_every_minutes: float = setting(
        15.0, "SUMMARY_EVERY_MINUTES", "… or after this many minutes", gt=0, le=DAY_MINUTES
    )
    summary_settle_seconds: float = setting(
        10.0, "SUMMARY_SETTLE_SECONDS", "a summary waits this long for late messages", ge=0, le=600
    )
    summary_max_messages: int = setting(
        200, "SUMMARY_MAX_MESSAGES", "messages one summary reads", ge=1, le=1000
    )
    reflect_lull_minutes: float = setting(
        10.0, "REFLECT_LULL_MINUTES", "reflect after this long a lull", gt=0, le=DAY_MINUTES
    )
    reflect_min_messages: int = setting(
        10, "REFLECT_MIN_MESSAGES", "messages a reflection needs", ge=1, le=10000
    )
    reflect_backlog_messages: int = setting(
        100, "REFLECT_BACKLOG_MESSAGES", "reflect without a lull after this many messages", ge=1, le=10000
    )
    facts_max_per_channel: int = setting(100, "FACTS_MAX_PER_CHANNEL", "facts kept per place", ge=1, le=10000)
    fact_alpha: float = setting(
        0.5, "FACT_ALPHA", "fact ranking: weight of keywords against embeddings", ge=0, le=1
    )
    fact_half_life_days: float = setting(
        30.0, "FACT_HALF_LIFE_DAYS", "a fact's weight halves in this many days", gt=0, le=3650
    )
    fact_min_score: float = setting(
        0.05, "FACT_MIN_SCORE", "decayed facts below this are removed", ge=0, le=1
    )
    fact_speaker_boost: float = setting(
        1.5, "FACT_SPEAKER_BOOST", "rank boost of the speaker's own facts", ge=0, le=10
    )
    fact_dedupe_similarity: float = setting(
        0.9, "FACT_DEDUPE_SIMILARITY", "a new fact this similar to a stored one is merged", ge=0, le=1
    )
    related_facts: int = setting(3, "RELATED_FACTS", "facts a reply's prompt gets", ge=0, le=20)
    related_min_score: float = setting(0.1, "RELATED_MIN_SCORE", "least score of a related fact", ge=0, le=1)
    familiarity_acquaintance: int = setting(
        6, "FAMILIARITY_ACQUAINTANCE", "exchanges to be an acquaintance", ge=0, le=1_000_000
    )
    familiarity_regular: int = setting(
        31, "FAMILIARITY_REGULAR", "exchanges to be a regular", ge=0, le=1_000_000
    )
    familiarity_close: int = setting(101, "FAMILIARITY_CLOSE", "exchanges to be close", ge=0, le=1_000_000)
    # On: a memory comes up at most once per fact, after a silence, out of cooldown, on a shared keyword
    # and within every other rule; off: the bot speaks only when the room calls for it.
    proactive_enabled: bool = setting(
        True, "PROACTIVE_ENABLED", "bring up a remembered fact when a silent room wakes up on its topic"
    )
    proactive_silence_minutes: float = setting(
        30.0,
        "PROACTIVE_SILENCE_MINUTES",
        ge=0,
        le=7 * DAY_MINUTES,
        doc="a room silent this long may hear a related fact",
    )
    # Measured on 24 related and 24 unrelated wake-ups (EN and JA, docs/memory.md): the offline embedder
    # gives related 0.127–0.618, unrelated ≤ 0.078; the shared-keyword rule keeps the hashing twin's
    # unrelated noise (≤ 0.182) out.
    proactive_min_score: float = setting(
        0.1, "PROACTIVE_MIN_SCORE", "least relevance of a proactive fact", ge=0, le=1
    )
    # Enough to speak in a neutral room (not_mentioned −20 → 45), not against two_people/closing/directed.
    proactive_weight: float = setting(
        65.0, "PROACTIVE_WEIGHT", "rule weight of a proactive fact", ge=0, le=100
    )
    # About 300 tokens of English (a Japanese character is about a token): the judge's prompt grows by a
    # fifth at most, and only in a server with other remembered public channels.
    judge_server_memory_chars: int = setting(
        1200,
        "JUDGE_SERVER_MEMORY_CHARS",
        "characters of the other public places' memory an LLM judgment and a reply read (0: none)",
        ge=0,
        le=8000,
    )
    embedding_backend: str = setting(
        "usem", "EMBEDDING_BACKEND", "fact embeddings: usem (offline) or gemini", choices=("usem", "gemini")
    )
    embedding_model: str = setting("gemini-embedding-001", "EMBEDDING_MODEL", "the Gemini embedding model")
    embedding_dimension: int = setting(
        512, "EMBEDDING_DIMENSION", "embedding size (the vector index's)", ge=1, le=2048
    )
    maintain_lookback_minutes: float = setting(
        90.0,
        "MAINTAIN_LOOKBACK_MINUTES",
        gt=0,
        le=7 * DAY_MINUTES,
        doc="guild memory reads channels active in this window",
    )
