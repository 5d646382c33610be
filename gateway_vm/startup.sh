#!/usr/bin/env bash
# GCE startup script (rendered by Terraform): install the gateway from the source bundle and start it.
# Template variables: project, topic, firestore_database, source_bucket, source_object, token_secret,
# enabled_channels, bot_name, shard_count, shard_ids, allow_dms, backlog.
set -euo pipefail

install_dir=/opt/kikimimi
mkdir -p "$install_dir" /etc/kikimimi
id -u kikimimi >/dev/null 2>&1 || useradd --system --home "$install_dir" --shell /usr/sbin/nologin kikimimi

apt-get update -q
DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3 python3-venv unzip curl ca-certificates

# The source bundle (functions/ + prompts/ + gateway_vm/) that Terraform uploaded.
token=$(curl -s -H "Metadata-Flavor: Google" \
  "http://metadata.google.internal/computeMetadata/v1/instance/service-accounts/default/token" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
curl -sf -H "Authorization: Bearer $token" \
  "https://storage.googleapis.com/storage/v1/b/${source_bucket}/o/${source_object}?alt=media" -o /tmp/kikimimi.zip
rm -rf "$install_dir/src" && mkdir -p "$install_dir/src" && unzip -q -o /tmp/kikimimi.zip -d "$install_dir/src"

python3 -m venv "$install_dir/.venv"
# Only the gateway's own pins: the functions' requirements (the Japanese tokenizer and its ~250 MB
# dictionary, Gemini, Cloud Tasks) are never imported here.
"$install_dir/.venv/bin/pip" install -q --require-hashes -r "$install_dir/src/gateway_vm/requirements.txt"

# The bot token comes from Secret Manager at start; it is written only to a root-readable env file.
discord_token=$(curl -sf -H "Authorization: Bearer $token" \
  "https://secretmanager.googleapis.com/v1/projects/${project}/secrets/${token_secret}/versions/latest:access" |
  python3 -c 'import base64,json,sys; print(base64.b64decode(json.load(sys.stdin)["payload"]["data"]).decode())')
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
PYTHONPATH=$install_dir/src
DISCORD_TOKEN=$discord_token
ENV
chown root:kikimimi /etc/kikimimi/gateway.env && chmod 640 /etc/kikimimi/gateway.env

# Ship the service's journald JSON lines to Cloud Logging (the gateway alerts read them). journald keeps
# each line in MESSAGE and gives stdout PRIORITY 6 (INFO) whatever the line says, so the Ops Agent
# parses MESSAGE as JSON and takes the severity from the line's own `severity` field; only the
# gateway's unit is shipped, so other services' errors do not page as gateway errors.
# tests/terraform/test_ops_agent.py renders this config and checks it against the documented names.
if ! systemctl is-active --quiet google-cloud-ops-agent; then
  curl -sSfo /tmp/add-ops-agent-repo.sh https://dl.google.com/cloudagents/add-google-cloud-ops-agent-repo.sh
  bash /tmp/add-ops-agent-repo.sh --also-install
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
        - 'NOT jsonPayload."_SYSTEMD_UNIT" = "kikimimi-gateway.service"'
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

cp "$install_dir/src/gateway_vm/kikimimi-gateway.service" /etc/systemd/system/kikimimi-gateway.service
sed -i "s#WorkingDirectory=/opt/kikimimi#WorkingDirectory=$install_dir/src#" /etc/systemd/system/kikimimi-gateway.service
systemctl daemon-reload
systemctl enable --now kikimimi-gateway.service
systemctl restart kikimimi-gateway.service
