// Command repos is seed 000's item collection of several types: a repo,
// its issues and its stars share the partition REPO#<name>, and their sort
// keys' prefixes sort ISSUE# < REPO# < STAR#. Anchored at the repo's own
// sort key, one query reads the repo with only its issues (SK <= the
// repo's, newest first), another the repo with only its stars (SK >= the
// repo's, newest first): filtering by sort order, not by value.
package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/examples/internal/demo"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
)

// Repo, Issue and Star are the collection's entity types; each field is
// stored under its own name.
type (
	Repo  struct{ Name, Description string }
	Issue struct {
		Repo   string
		Number uint32
		Title  string
	}
	Star struct {
		Repo, User string
		StarredAt  time.Time
	}
)

var (
	// The keys: REPO#keyfirst/keyfirst, ISSUE#00000042 (zero-padded, so
	// that issue 10 sorts after issue 9) and STAR#2026-06-23T10:00:00#ada
	// (newest last; a user stars a repo once).
	repoKey  = keys.NewKey1(keys.ID[string](), keys.WithPrefix("REPO"))
	issueKey = keys.NewKey1(keys.Uint[uint32](8), keys.WithPrefix("ISSUE"))
	starKey  = keys.NewKey2(keys.Time(keys.Second), keys.ID[string](), keys.WithPrefix("STAR"))

	// One partition key, one sort key pattern per entity type.
	repoByName    = keyfirst.OnTable(keyfirst.Composite("PK", repoKey), keyfirst.Composite("SK", repoKey))
	issueByNumber = keyfirst.OnTable(keyfirst.Composite("PK", repoKey), keyfirst.Composite("SK", issueKey))
	starByTime    = keyfirst.OnTable(keyfirst.Composite("PK", repoKey), keyfirst.Composite("SK", starKey))

	GitHub = keyfirst.Must(keyfirst.NewTable(keyfirst.TableSpec{Name: "GitHub", Key: repoByName}))
	Repos  = keyfirst.Must(keyfirst.NewEntity(GitHub, keyfirst.EntitySpec[Repo]{
		Type: "Repo", Keys: []keyfirst.Binding{repoByName.Fields("Name", "Name")}}))
	Issues = keyfirst.Must(keyfirst.NewEntity(GitHub, keyfirst.EntitySpec[Issue]{
		Type: "Issue", Keys: []keyfirst.Binding{issueByNumber.Fields("Repo", "Number")}}))
	Stars = keyfirst.Must(keyfirst.NewEntity(GitHub, keyfirst.EntitySpec[Star]{
		Type: "Star", Keys: []keyfirst.Binding{starByTime.Fields("Repo", "StarredAt", "User")}}))
)

func main() { demo.Main(run) }

func run(ctx context.Context, w io.Writer, client *dynamodb.Client) (err error) {
	db := demo.New(w, client)
	defer db.Close(ctx, &err)
	table, err := db.Create(ctx, GitHub)
	if err != nil {
		return err
	}
	// Bindings of their own schema: In cannot fail.
	repos, issues, stars := keyfirst.Must(Repos.In(table)), keyfirst.Must(Issues.In(table)), keyfirst.Must(Stars.In(table))

	at := func(day, hour int) time.Time { return time.Date(2026, 6, day, hour, 0, 0, 0, time.UTC) }
	if err := table.BatchWrite(ctx, db, []keyfirst.WriteRequest{
		repos.PutRequest(Repo{"keyfirst/keyfirst", "key conditions only"}),
		issues.PutRequest(Issue{"keyfirst/keyfirst", 1, "typed sort keys"}),
		issues.PutRequest(Issue{"keyfirst/keyfirst", 9, "sparse indexes"}),
		issues.PutRequest(Issue{"keyfirst/keyfirst", 10, "examples"}),
		stars.PutRequest(Star{"keyfirst/keyfirst", "grace", at(21, 9)}),
		stars.PutRequest(Star{"keyfirst/keyfirst", "ada", at(23, 10)}),
		stars.PutRequest(Star{"keyfirst/keyfirst", "linus", at(22, 8)}),
		// Another repo's collection, which neither query touches.
		repos.PutRequest(Repo{"other/repo", "elsewhere"}),
		issues.PutRequest(Issue{"other/repo", 3, "not ours"}),
		stars.PutRequest(Star{"other/repo", "ken", at(22, 12)}),
	}); err != nil {
		return err
	}

	// Both queries read the one collection, on either side of the repo's sort key.
	repo := query.CollectionOn(table, repoByName, "keyfirst/keyfirst")
	anchor := repoKey.At("keyfirst/keyfirst")
	if err := show(ctx, db, w, "the repo keyfirst/keyfirst and its two newest issues:", repo.Sort(anchor.Le()).Desc().Limit(3)); err != nil {
		return err
	}
	return show(ctx, db, w, "\nits stars, newest first, then the repo:", repo.Sort(anchor.Ge()).Desc())
}

// show prints title and the items q reads, each decoded into its own
// type, then the request it took.
func show(ctx context.Context, db *demo.DB, w io.Writer, title string, q query.Query[any]) error {
	fmt.Fprintln(w, title)
	items, err := q.Collect(ctx, db)
	if err != nil {
		return err
	}
	for _, item := range items {
		switch v := item.(type) {
		case Repo:
			fmt.Fprintf(w, "  repo   %s: %s\n", v.Name, v.Description)
		case Issue:
			fmt.Fprintf(w, "  issue  #%d %s\n", v.Number, v.Title)
		case Star:
			fmt.Fprintf(w, "  star   %s, %s\n", v.User, v.StarredAt.Format(time.RFC3339))
		default:
			fmt.Fprintf(w, "  %T %v\n", v, v)
		}
	}
	db.Report()
	return nil
}
