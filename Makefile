# keyfirst: the two commands of the README, and what they need.
#   make test      vet, fuzz targets, race-enabled tests against DynamoDB Local
#   make example   the flagship example against DynamoDB Local in a container

DYNAMODB_LOCAL_IMAGE ?= amazon/dynamodb-local:3.3.1
FUZZTIME ?= 3s

# What testcontainers needs on a machine without the reaper image and with
# /.dockerenv (see integration's package doc).
export DYNAMODB_LOCAL_IMAGE
export TESTCONTAINERS_RYUK_DISABLED ?= true
export TESTCONTAINERS_HOST_OVERRIDE ?= localhost

.PHONY: test example docker image vet unit fuzz clean-containers

# The fuzz targets run first, so that go test's summary closes the output.
test: vet docker image
	@$(MAKE) --no-print-directory fuzz
	@echo "go test -race -count=1 ./..."; rc=0; go test -race -count=1 ./... || rc=$$?; \
	  $(MAKE) --no-print-directory clean-containers || rc=1; exit $$rc

example: docker image
	go run ./examples/quickstart

vet:
	go vet ./...

# Tests that need no DynamoDB Local.
unit:
	go test -short ./...

docker:
	@if [ -z "$$DYNAMODB_ENDPOINT" ]; then bash scripts/docker-engine.sh; fi

# Pull the image; where no registry answers, build it offline.
image:
	@if [ -z "$$DYNAMODB_ENDPOINT" ]; then \
	  docker image inspect $(DYNAMODB_LOCAL_IMAGE) >/dev/null 2>&1 || \
	  docker pull -q $(DYNAMODB_LOCAL_IMAGE) >/dev/null 2>&1 || \
	  bash integration/localimage/build.sh $(DYNAMODB_LOCAL_IMAGE); \
	fi

# Each fuzz target for FUZZTIME (go test takes one -fuzz target at a time).
fuzz:
	@bash scripts/fuzz.sh $(FUZZTIME)

# Report and remove any container a killed test binary left behind.
clean-containers:
	@if [ -z "$$DYNAMODB_ENDPOINT" ]; then \
	  left=$$(docker ps -aq --filter label=keyfirst.integration); \
	  if [ -n "$$left" ]; then echo "removing containers left by tests: $$left"; docker rm -f $$left >/dev/null; exit 1; fi; \
	fi
