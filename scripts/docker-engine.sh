#!/usr/bin/env bash
# Makes sure a Docker engine answers. When none does and this runs as root,
# installs Debian's docker.io (if dockerd is missing) and starts dockerd in
# the background; otherwise stops with a message that says what to do.
set -euo pipefail

if docker info >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "docker-engine: no Docker engine answers. Start one (dockerd, Docker Desktop, colima...)," >&2
  echo "or run the tests against a running DynamoDB Local: DYNAMODB_ENDPOINT=http://localhost:8000 go test ./..." >&2
  exit 1
fi
if ! command -v dockerd >/dev/null 2>&1; then
  echo "docker-engine: installing docker.io from Debian"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends docker.io >/dev/null
fi
# A dockerd killed hard leaves its pid file behind; it starts cleanly without.
if [ -f /var/run/docker.pid ] && ! kill -0 "$(cat /var/run/docker.pid)" 2>/dev/null; then
  rm -f /var/run/docker.pid
fi
echo "docker-engine: starting dockerd (log: /tmp/dockerd.log)"
nohup dockerd >/tmp/dockerd.log 2>&1 &
for _ in $(seq 1 60); do
  if docker info >/dev/null 2>&1; then
    exit 0
  fi
  sleep 1
done
echo "docker-engine: dockerd did not answer within 60 s; see /tmp/dockerd.log:" >&2
tail -20 /tmp/dockerd.log >&2
exit 1
