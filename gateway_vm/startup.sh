#!/usr/bin/env bash
# GCE startup script (rendered by Terraform; it runs at every boot): install the gateway from the source
# bundle and start it. Order matters: the Ops Agent comes first, so that every later step and the
# gateway reach Cloud Logging; then the bundle; then the bot token. A first apply creates the token's
# secret without a version: the script then waits for one (a WARNING line per try, with back-off; an
# ERROR after 30 minutes) and starts the gateway as soon as it can read it: no re-apply, no reset.
# Template variables: project, topic, firestore_database, source_bucket, source_object, token_secret,
# enabled_channels, bot_name, shard_count, shard_ids, allow_dms, backlog.
set -euo pipefail

install_dir=/opt/kikimimi
mkdir -p "$install_dir" /etc/kikimimi
id -u kikimimi >/dev/null 2>&1 || useradd --system --home "$install_dir" --shell /usr/sbin/nologin kikimimi

# A step that needs the network, tried 5 times, 15 s more apart each time (a boot may precede the NAT).
retry() {
  local tries=0
  until "$@"; do
    tries=$((tries + 1))
    if [ "$tries" -ge 5 ]; then
      return 1
    fi
    sleep $((tries * 15))
  done
}

# One JSON line per step, to journald under the tag the Ops Agent ships (so it reaches Cloud Logging
# like the gateway's own lines) and to the serial console. Arguments: SEVERITY EVENT MESSAGE KEY=VALUE…
log_event() {
  local line
  line=$(python3 -c 'import json, sys
fields = {k: int(v) if v.isdigit() else v for k, v in (a.split("=", 1) for a in sys.argv[4:])}
print(json.dumps({"severity": sys.argv[1], "event": sys.argv[2], "message": sys.argv[3], **fields}))' "$@")
  printf '%s\n' "$line" | systemd-cat -t kikimimi-startup
  printf '%s\n' "$line"
}

# Prints the bot token (the secret's latest version, read with the VM's account); when there is none to
# read, prints why (Secret Manager's HTTP status, or "unreachable") and fails.
fetch_token() {
  python3 - "https://secretmanager.googleapis.com/v1/projects/${project}/secrets/${token_secret}/versions/latest:access" <<'PY'
import base64
import json
import sys
import urllib.error
import urllib.request

METADATA = "http://metadata.google.internal/computeMetadata/v1/instance/service-accounts/default/token"
try:
    ask = urllib.request.Request(METADATA, headers={"Metadata-Flavor": "Google"})
    with urllib.request.urlopen(ask, timeout=10) as answer:
        access = json.load(answer)["access_token"]
    ask = urllib.request.Request(sys.argv[1], headers={"Authorization": "Bearer " + access})
    with urllib.request.urlopen(ask, timeout=10) as answer:
        payload = json.load(answer)["payload"]["data"]
except urllib.error.HTTPError as exc:
    print(exc.code)
    sys.exit(1)
except (OSError, ValueError, KeyError):
    print("unreachable")
    sys.exit(1)
print(base64.b64decode(payload).decode())
PY
}

# Until the token's secret has a version this VM can read: a gateway_token_waiting WARNING per try,
# 15 s doubling to 5 minutes apart, and once, after 30 minutes, a gateway_token_missing ERROR (the
# gateway-errors alert mails it). Sets discord_token.
wait_for_token() {
  local attempt=0 delay=15 waited=0 told=0 answer
  while true; do
    attempt=$((attempt + 1))
    if answer=$(fetch_token); then
      discord_token=$answer
      return 0
    fi
    if [ "$told" = 0 ] && [ "$waited" -ge 1800 ]; then
      log_event ERROR gateway_token_missing "secret ${token_secret} still has no version this VM can read after $waited s: the gateway cannot start until one is added (terraform output next_steps)" "secret=${token_secret}" "waited_seconds=$waited"
      told=1
    fi
    log_event WARNING gateway_token_waiting "waiting for the bot token: secret ${token_secret} has no version this VM can read (Secret Manager: $answer); next try in $delay s. Add one: gcloud secrets versions add ${token_secret} --project=${project} --data-file=-" "secret=${token_secret}" "status=$answer" "attempt=$attempt" "retry_seconds=$delay"
    sleep "$delay"
    waited=$((waited + delay))
    delay=$((delay * 2))
    if [ "$delay" -gt 300 ]; then
      delay=300
    fi
  done
}

# Ship the service's journald JSON lines to Cloud Logging (the gateway alerts read them). journald keeps
# each line in MESSAGE and gives stdout PRIORITY 6 (INFO) whatever the line says, so the Ops Agent
# parses MESSAGE as JSON and takes the severity from the line's own `severity` field; only the
# gateway's unit and this script's tagged lines are shipped, so other services' errors do not page as
# gateway errors. tests/terraform/test_ops_agent.py renders this config and checks it against the
# documented names.
install_ops_agent() {
  curl -sSfo /tmp/add-ops-agent-repo.sh https://dl.google.com/cloudagents/add-google-cloud-ops-agent-repo.sh &&
    bash /tmp/add-ops-agent-repo.sh --also-install
}
if ! systemctl is-active --quiet google-cloud-ops-agent; then
  retry install_ops_agent
fi
mkdir -p /etc/google-cloud-ops-agent
cat > /etc/google-cloud-ops-agent/config.yaml <<'OPS'
logging:
  receivers:
    kikimimi_gateway:
      type: systemd_journald
  processors:
    kikimimi_only:
      type: exclude_logs
      matches_any:
        - 'NOT jsonPayload."_SYSTEMD_UNIT" = "kikimimi-gateway.service" AND NOT jsonPayload.SYSLOG_IDENTIFIER = "kikimimi-startup"'
    kikimimi_json:
      type: parse_json
      field: MESSAGE
    kikimimi_severity:
      type: modify_fields
      fields:
        severity:
          move_from: jsonPayload.severity
          default_value: INFO
  service:
    pipelines:
      kikimimi:
        receivers: [kikimimi_gateway]
        processors: [kikimimi_only, kikimimi_json, kikimimi_severity]
OPS
systemctl restart google-cloud-ops-agent || true

export DEBIAN_FRONTEND=noninteractive
retry apt-get update -q
retry apt-get install -y -q python3 python3-venv unzip curl ca-certificates

# The source bundle (functions/ + prompts/ + gateway_vm/) that Terraform uploaded.
download_bundle() {
  local access
  access=$(curl -sSf -H "Metadata-Flavor: Google" \
    "http://metadata.google.internal/computeMetadata/v1/instance/service-accounts/default/token" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])') &&
    curl -sSf -H "Authorization: Bearer $access" \
      "https://storage.googleapis.com/storage/v1/b/${source_bucket}/o/${source_object}?alt=media" -o /tmp/kikimimi.zip
}
retry download_bundle
rm -rf "$install_dir/src" && mkdir -p "$install_dir/src" && unzip -q -o /tmp/kikimimi.zip -d "$install_dir/src"

python3 -m venv "$install_dir/.venv"
# Only the gateway's own pins: the functions' requirements (the Japanese tokenizer and its ~250 MB
# dictionary, Gemini, Cloud Tasks) are never imported here.
retry "$install_dir/.venv/bin/pip" install -q --require-hashes -r "$install_dir/src/gateway_vm/requirements.txt"

# The bot token comes from Secret Manager (waiting for its first version); it is written only to a
# root-readable env file.
wait_for_token
umask 077
cat > /etc/kikimimi/gateway.env <<ENV
GOOGLE_CLOUD_PROJECT=${project}
PUBSUB_TOPIC=${topic}
FIRESTORE_DATABASE=${firestore_database}
ENABLED_CHANNELS=${enabled_channels}
BOT_NAME=${bot_name}
SHARD_COUNT=${shard_count}
SHARD_IDS=${shard_ids}
ALLOW_DMS=${allow_dms}
GATEWAY_BACKLOG=${backlog}
BOT_LANGUAGE=${bot_language}
BUFFER_TTL_MINUTES=${buffer_ttl_minutes}
MEMORY_ENABLED=${memory_enabled}
FACT_HALF_LIFE_DAYS=${fact_half_life_days}
FACT_MIN_SCORE=${fact_min_score}
GROUNDING=${grounding}
LLM_BACKEND=${llm_backend}
LLM_JUDGMENTS_PER_HOUR=${llm_judgments_per_hour}
LLM_CALLS_PER_GUILD_PER_DAY=${llm_calls_per_guild_per_day}
TALKATIVENESS_FLOOR=${talkativeness_floor}
BOT_ALIASES=${bot_aliases}
ADDRESSED_MAX_AGE_SECONDS=${addressed_max_age_seconds}
TOMBSTONE_DAYS=${tombstone_days}
PYTHONPATH=$install_dir/src
DISCORD_TOKEN=$discord_token
ENV
chown root:kikimimi /etc/kikimimi/gateway.env && chmod 640 /etc/kikimimi/gateway.env

cp "$install_dir/src/gateway_vm/kikimimi-gateway.service" /etc/systemd/system/kikimimi-gateway.service
sed -i "s#WorkingDirectory=/opt/kikimimi#WorkingDirectory=$install_dir/src#" /etc/systemd/system/kikimimi-gateway.service
systemctl daemon-reload
systemctl enable --now kikimimi-gateway.service
systemctl restart kikimimi-gateway.service
