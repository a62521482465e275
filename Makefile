# keyfirst: the two commands of the README, and what they need.
#   make test      no tracked binaries, vet, fuzz targets, race-enabled tests against DynamoDB Local,
#                  and those of the modules of their own: testcontainers' (make tclocal) and
#                  the Lambda adapter's (make lambdastream) and the OpenTelemetry adapter's (make otelkf)
#   make example   the flagship example against DynamoDB Local in a container
#   make examples  every example program against one DynamoDB Local
#   make bench     every package's benchmarks in interleaved rounds, the median
#                  ratio of each keyfirst variant to its hand-written twin
#                  (not part of make test)

DYNAMODB_LOCAL_IMAGE ?= amazon/dynamodb-local:3.3.1
# A count of executions, not a duration: with a duration, go1.26's fuzz
# coordinator can fail a target with a bare "context deadline exceeded" when
# the time runs out under load (golang/go#75804, fixed in go1.27); CI failed
# on it once. A count has no deadline to race.
FUZZTIME ?= 30000x

# The id of this run. Every container the tests start carries it as the
# label keyfirst.run (integration.EnvRunID), so that clean-containers removes
# what this run left behind and nothing of another run on the same engine.
ifndef KEYFIRST_RUN_ID
KEYFIRST_RUN_ID := make-$(shell od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
endif
export DYNAMODB_LOCAL_IMAGE KEYFIRST_RUN_ID

STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: test bench example examples docker image vet staticcheck tracked unit fuzz clean-containers tclocal lambdastream otelkf

# The fuzz targets run first, so that go test's summary closes the output.
test: tracked vet staticcheck docker image
	@echo "integration: run $(KEYFIRST_RUN_ID); each DynamoDB Local container ends with its test binary, even a killed one (no reaper container needed)"
	@$(MAKE) --no-print-directory fuzz
	@echo "go test -race -count=1 ./..."; rc=0; go test -race -count=1 ./... || rc=$$?; \
	  $(MAKE) --no-print-directory tclocal || rc=1; \
	  $(MAKE) --no-print-directory lambdastream || rc=1; \
	  $(MAKE) --no-print-directory otelkf || rc=1; \
	  $(MAKE) --no-print-directory clean-containers || rc=1; exit $$rc

# BENCH_ROUNDS rounds (at least 10 for a figure to quote); each round runs
# every benchmark of every package once (-count 1), so that each keyfirst
# variant (keyfirst, keyfirst-<variant>) and its hand twin run side by side
# under the same load; the median of the per-round ratios of ns/op, B/op,
# allocs/op and the benchmark's own metrics is printed, references
# (raw-expression, attributevalue) apart (internal/benchratio).
# BENCH_TIME is each run's -benchtime, BENCH_PKGS the packages.
BENCH_ROUNDS ?= 10
BENCH_TIME ?= 1s
BENCH_PKGS ?= ./...
bench: docker image
	go run ./internal/benchratio -rounds $(BENCH_ROUNDS) -benchtime $(BENCH_TIME) $(BENCH_PKGS)

example: docker image
	go run ./examples/orders

examples: docker image
	go run ./examples/internal/runall

vet:
	go vet ./...

staticcheck:
	go run $(STATICCHECK) ./...

# Nothing built is tracked: an executable in git fails the run.
tracked:
	@bash scripts/tracked-binaries.sh

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

# Each fuzz target for FUZZTIME executions (go test takes one -fuzz target at a time).
fuzz:
	@bash scripts/fuzz.sh $(FUZZTIME)

# The module integration/tclocal (a go.mod of its own, so that keyfirst's
# users inherit nothing of testcontainers-go): its test starts DynamoDB
# Local with testcontainers-go, so it needs the engine and the image even
# when DYNAMODB_ENDPOINT is set. Its reaper image cannot be pulled without
# a registry (tclocal terminates its container itself), and inside a
# container testcontainers dials the default gateway unless told the host.
TESTCONTAINERS_RYUK_DISABLED ?= true
TESTCONTAINERS_HOST_OVERRIDE ?= localhost
tclocal:
	@bash scripts/docker-engine.sh
	@docker image inspect $(DYNAMODB_LOCAL_IMAGE) >/dev/null 2>&1 || \
	  docker pull -q $(DYNAMODB_LOCAL_IMAGE) >/dev/null 2>&1 || \
	  bash integration/localimage/build.sh $(DYNAMODB_LOCAL_IMAGE)
	cd integration/tclocal && go vet ./... && go run $(STATICCHECK) ./... && \
	  env -u DYNAMODB_ENDPOINT TESTCONTAINERS_RYUK_DISABLED=$(TESTCONTAINERS_RYUK_DISABLED) \
	  TESTCONTAINERS_HOST_OVERRIDE=$(TESTCONTAINERS_HOST_OVERRIDE) go test -race -count=1 ./...

# The module stream/lambdastream (a go.mod of its own, so that a module
# importing keyfirst's core packages gets no aws-lambda-go): vet,
# staticcheck and its tests, against DYNAMODB_ENDPOINT or a container of
# its own, as the core's tests.
lambdastream:
	cd stream/lambdastream && go vet ./... && go run $(STATICCHECK) ./... && go test -race -count=1 ./...

# The module observe/otelkf (a go.mod of its own, so that a module
# importing keyfirst's core packages gets no OpenTelemetry): vet,
# staticcheck and its tests, as lambdastream's.
otelkf:
	cd observe/otelkf && go vet ./... && go run $(STATICCHECK) ./... && go test -race -count=1 ./...

# Report and remove the containers this run left behind (a test binary
# killed before it could remove its own, whose container is still ending);
# another run's are not touched.
clean-containers:
	@if [ -z "$$DYNAMODB_ENDPOINT" ]; then \
	  left=$$(docker ps -aq --filter label=keyfirst.run=$(KEYFIRST_RUN_ID)); \
	  if [ -n "$$left" ]; then echo "removing containers left by run $(KEYFIRST_RUN_ID): $$left"; docker rm -f $$left >/dev/null 2>&1; exit 1; fi; \
	fi
