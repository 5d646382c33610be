"""Every JSON body the fake sends, shaped like Discord API v10 (the fields discord.py 2.7 reads)."""

from __future__ import annotations

import hashlib
from typing import Any

from kikimimi_dev.local.fake_discord.state import Channel, FakeState, Guild, StoredMessage, User

API_VERSION = 10
MESSAGE_TYPE_DEFAULT = 0
MESSAGE_TYPE_REPLY = 19

# @everyone may read, write, react and embed: what a bot in an ordinary server is given.
EVERYONE_PERMISSIONS = sum(1 << bit for bit in (6, 10, 11, 14, 15, 16, 17, 18, 35, 38))

# GATEWAY_GUILD_MEMBERS_LIMITED | GATEWAY_MESSAGE_CONTENT_LIMITED: an unverified bot with both intents.
APPLICATION_FLAGS = (1 << 15) | (1 << 19)

Json = dict[str, Any]


def user(u: User) -> Json:
    return {
        "id": u.id,
        "username": u.username,
        "discriminator": "0",
        "global_name": u.global_name,
        "avatar": None,
        "bot": u.bot,
        "public_flags": 0,
        "flags": 0,
        "primary_guild": None,  # no server tag shown
    }


def member(u: User, guild: Guild, *, with_user: bool = True) -> Json:
    data: Json = {
        "roles": [],
        "nick": None,
        "avatar": None,
        "banner": None,
        "joined_at": guild.joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
    }
    if with_user:
        data["user"] = user(u)
    return data


SEND_MESSAGES, ADD_REACTIONS = 1 << 11, 1 << 6


def bot_permissions(state: FakeState, channel_id: str, bot: User) -> int:
    """What the bot may do in a channel: what interactions carry as `app_permissions`, and what the REST
    routes enforce (403 Missing Permissions)."""
    return state.permissions(channel_id, bot.id, EVERYONE_PERMISSIONS)


def everyone_role(guild: Guild) -> Json:
    return {
        "id": guild.id,  # the @everyone role shares the guild's id
        "name": "@everyone",
        "permissions": str(EVERYONE_PERMISSIONS),
        "position": 0,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "icon": None,
        "unicode_emoji": None,
        "flags": 0,
    }


def channel(c: Channel) -> Json:
    if c.parent_id is not None:
        return thread(c)
    return {
        "id": c.id,
        "type": c.type,
        "guild_id": c.guild_id,
        "name": c.name,
        "position": c.position,
        "permission_overwrites": list(c.overwrites),
        "nsfw": False,
        "parent_id": None,
        "topic": c.topic,
        "rate_limit_per_user": 0,
        "last_message_id": c.last_message_id,
        "flags": 0,
    }


def thread(c: Channel) -> Json:
    """A thread channel as discord.py's Thread reads it (parent, owner, metadata, counts)."""
    return {
        "id": c.id,
        "type": c.type,
        "guild_id": c.guild_id,
        "name": c.name,
        "parent_id": c.parent_id,
        "owner_id": c.owner_id,
        "last_message_id": c.last_message_id,
        "rate_limit_per_user": 0,
        "flags": 0,
        "message_count": 0,
        "total_message_sent": 0,
        "member_count": 1,
        "thread_metadata": {
            "archived": c.archived,
            "auto_archive_duration": 1440,
            "locked": False,
            "archive_timestamp": "2026-01-01T00:00:00+00:00",
        },
    }


def _keys(names: str) -> list[str]:
    return names.split()


# GUILD_CREATE fields this fake never varies, grouped by their value.
_GUILD_NULLS = _keys(
    "icon splash discovery_splash banner description afk_channel_id "
    "rules_channel_id public_updates_channel_id vanity_url_code application_id"
)
_GUILD_ZEROS = _keys(
    "verification_level explicit_content_filter mfa_level nsfw_level premium_tier "
    "premium_subscription_count system_channel_flags"
)
_GUILD_EMPTY_LISTS = _keys(
    "features emojis stickers threads presences voice_states stage_instances "
    "guild_scheduled_events soundboard_sounds"
)


def guild_create(state: FakeState, guild: Guild) -> Json:
    """The full GUILD_CREATE body: guild fields plus channels, members and the empty extras."""
    members = [member(state.users[uid], guild) for uid in guild.member_ids]
    return {
        **dict.fromkeys(_GUILD_NULLS),
        **dict.fromkeys(_GUILD_ZEROS, 0),
        **{key: [] for key in _GUILD_EMPTY_LISTS},
        "id": guild.id,
        "name": guild.name,
        "owner_id": guild.owner_id,
        "afk_timeout": 300,
        "default_message_notifications": 1,
        "premium_progress_bar_enabled": False,
        "preferred_locale": guild.locale,
        "system_channel_id": guild.system_channel_id,
        "roles": [everyone_role(guild)],
        "joined_at": guild.joined_at,
        "large": False,
        "unavailable": False,
        "member_count": len(members),
        "members": members,
        "channels": [channel(state.channels[cid]) for cid in guild.channel_ids],
        # Discord lists only the active threads: an archived one is unknown to a client until asked for.
        "threads": [thread(state.channels[t]) for t in guild.thread_ids if not state.channels[t].archived],
    }


def message(state: FakeState, m: StoredMessage, *, with_member: bool = False, depth: int = 0) -> Json:
    """A message object; gateway events add the author's `member`, replies nest the referenced one."""
    guild = state.guilds[m.guild_id]
    data: Json = {
        "id": m.id,
        "channel_id": m.channel_id,
        "guild_id": m.guild_id,
        "author": webhook_author(m) if m.webhook_name is not None else user(state.users[m.author_id]),
        "content": m.content,
        "timestamp": m.timestamp,
        "edited_timestamp": m.edited_timestamp,
        "tts": False,
        "mention_everyone": m.mention_everyone,
        "mentions": [
            {**user(state.users[uid]), "member": member(state.users[uid], guild, with_user=False)}
            for uid in m.mention_ids
            if uid in state.users
        ],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": False,
        "type": MESSAGE_TYPE_REPLY if m.reference_id else MESSAGE_TYPE_DEFAULT,
        "flags": 0,
        "components": [],
    }
    if m.nonce is not None:
        data["nonce"] = m.nonce
    if m.reactions:
        # Only the bot reacts through this fake's REST API, so "me" means "a bot reacted".
        bots = {u.id for u in state.users.values() if u.bot}
        data["reactions"] = [
            {"emoji": emoji_object(e), "count": len(u), "me": bool(bots & set(u)), "burst_colors": []}
            for e, u in m.reactions.items()
        ]
    if m.webhook_name is not None:
        data["webhook_id"] = m.author_id  # a webhook's message has no member
    elif with_member:
        data["member"] = member(state.users[m.author_id], guild, with_user=False)
    if m.reference_id:
        reference = {"type": 0, "message_id": m.reference_id, "channel_id": m.channel_id}
        data["message_reference"] = {**reference, "guild_id": m.guild_id}
        referenced = state.messages.get(m.reference_id)
        # Discord nests one level only; a deleted target shows as null.
        if depth == 0:
            data["referenced_message"] = None if referenced is None else message(state, referenced, depth=1)
    return data


def webhook_author(m: StoredMessage) -> Json:
    """A webhook message's author as Discord sends it: the webhook's id, the name it posted under."""
    return {
        "id": m.author_id,
        "username": m.webhook_name,
        "discriminator": "0000",
        "global_name": None,
        "avatar": None,
        "bot": True,
    }


def emoji_object(emoji: str) -> Json:
    """`name:id` is a custom emoji, anything else a Unicode one."""
    name, _, emoji_id = emoji.partition(":")
    return {"id": emoji_id or None, "name": name if emoji_id else emoji}


def message_delete(m: StoredMessage) -> Json:
    return {"id": m.id, "channel_id": m.channel_id, "guild_id": m.guild_id}


def reaction_add(state: FakeState, m: StoredMessage, emoji: str, user_id: str) -> Json:
    guild = state.guilds[m.guild_id]
    return {
        "user_id": user_id,
        "channel_id": m.channel_id,
        "message_id": m.id,
        "guild_id": m.guild_id,
        "member": member(state.users[user_id], guild),
        "emoji": emoji_object(emoji),
        "message_author_id": m.author_id,
        "burst": False,
        "burst_colors": [],
        "type": 0,
    }


def ready(state: FakeState, bot: User, session_id: str, resume_url: str, shard: list[int] | None) -> Json:
    data: Json = {
        "v": API_VERSION,
        "user": {**user(bot), "verified": True, "mfa_enabled": False},
        "guilds": [{"id": gid, "unavailable": True} for gid in state.guilds],
        "session_id": session_id,
        "session_type": "normal",
        "resume_gateway_url": resume_url,
        "application": {"id": bot.id, "flags": APPLICATION_FLAGS},
        "private_channels": [],
        "presences": [],
        "geo_ordered_rtc_regions": [],
        "user_settings": {},
        "_trace": ["fake-discord"],
    }
    if shard is not None:
        data["shard"] = shard
    return data


def application(bot: User, owner: User) -> Json:
    return {
        "id": bot.id,
        "name": bot.username,
        "icon": None,
        "description": "",
        "bot_public": False,
        "bot_require_code_grant": False,
        "owner": user(owner),
        "verify_key": hashlib.sha256(bot.id.encode()).hexdigest(),
        "flags": APPLICATION_FLAGS,
        "flags_new": str(APPLICATION_FLAGS),
        "type": None,
        "interactions_endpoint_url": None,  # else discord.py warns that interactions go elsewhere
        "role_connections_verification_url": None,
        "redirect_uris": [],
        "team": None,
        "approximate_guild_count": 1,
        "approximate_user_install_count": 0,
        "approximate_user_authorization_count": 0,
        "explicit_content_filter": 0,
        "eligible_oauth2_scopes": ["bot", "applications.commands"],
    }


def gateway_bot(url: str) -> Json:
    limit = {"total": 1000, "remaining": 999, "reset_after": 14_400_000, "max_concurrency": 1}
    return {"url": url, "shards": 1, "session_start_limit": limit}


def error(code: int, message: str, errors: Json | None = None) -> Json:
    body: Json = {"message": message, "code": code}
    if errors is not None:
        body["errors"] = errors
    return body


def form_error(field: str, code: str, message: str) -> Json:
    """Discord's 50035 Invalid Form Body shape."""
    return error(50035, "Invalid Form Body", {field: {"_errors": [{"code": code, "message": message}]}})


def rate_limited(retry_after: float, global_: bool) -> Json:
    return {**error(0, "You are being rate limited."), "retry_after": retry_after, "global": global_}


def members_chunk(state: FakeState, guild: Guild, nonce: str | None) -> Json:
    data: Json = {
        "guild_id": guild.id,
        "members": [member(state.users[uid], guild) for uid in guild.member_ids],
        "chunk_index": 0,
        "chunk_count": 1,
        "not_found": [],
    }
    if nonce is not None:
        data["nonce"] = nonce
    return data
