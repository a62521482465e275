package query_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/keys"
	"github.com/keyfirst/keyfirst/query"
)

// The seeds' access patterns on DynamoDB Local, each asserting the exact
// items in the exact order.

func micro(s string) time.Time {
	t, err := time.Parse("2006-01-02T15:04:05.999999", s)
	if err != nil {
		panic(err)
	}
	return t
}

// Seed 000: a customer's CANCELLED orders from 1 July through 30
// September, through a GSI on CustomerId + OrderStatusDate, and the same
// through a native multi-attribute GSI (status, date), with one keys.Cond.
func TestSeedCancelledOrdersInQ3(t *testing.T) {
	t.Parallel()
	client, s := localShop(t)
	orders := []Order{
		{CustomerID: "c1", ID: "o01", Status: Cancelled, Date: micro("2019-06-30T23:59:59.999999")},
		{CustomerID: "c1", ID: "o02", Status: Cancelled, Date: micro("2019-07-01T00:00:00")},
		{CustomerID: "c1", ID: "o03", Status: Shipped, Date: micro("2019-07-15T00:00:00")},
		{CustomerID: "c1", ID: "o04", Status: Cancelled, Date: micro("2019-08-10T12:00:00")},
		{CustomerID: "c1", ID: "o05", Status: Cancelled, Date: micro("2019-09-30T23:59:59.999999")},
		{CustomerID: "c1", ID: "o06", Status: Cancelled, Date: micro("2019-10-01T00:00:00")},
		{CustomerID: "c1", ID: "o07", Status: Delivered, Date: micro("2019-08-01T00:00:00")},
		{CustomerID: "c1", ID: "o08", Status: Cancelled, Date: micro("2019-07-20T08:30:00.5")},
		{CustomerID: "c2", ID: "o09", Status: Cancelled, Date: micro("2019-08-01T00:00:00")},
		{CustomerID: "c1", ID: "o10", Status: Pending, Date: micro("2019-09-01T00:00:00")},
	}
	var reqs []keyfirst.WriteRequest
	for _, o := range orders {
		reqs = append(reqs, s.orders.PutRequest(o))
	}
	reqs = append(reqs, s.customers.PutRequest(Customer{ID: "c1", Name: "Ada"}))
	write(t, client, s.table, reqs...)

	jul1, oct1 := micro("2019-07-01T00:00:00"), micro("2019-10-01T00:00:00")
	inQ3, err := statusDate.With1(Cancelled).HalfOpen(jul1, oct1)
	noErr(t, err)
	want := []string{"o02", "o08", "o04", "o05"}

	queries := []struct {
		name string
		q    query.Query[Order]
	}{
		{"GSI CustomerId + OrderStatusDate", query.On(s.orders, byStatusDate, "c1").Sort(statusDate.With1(Cancelled).HalfOpen(jul1, oct1))},
		{"native GSI CustomerId / OrderStatus, OrderDate", query.On(s.orders, byStatusDateNative, "c1").Sort(statusDate.With1(Cancelled).HalfOpen(jul1, oct1))},
		{"native GSI CustomerId, OrderStatus / OrderDate", query.On(s.orders, byCustomerStatus, keys.Of2("c1", Cancelled)).
			Sort(placedKey.Range().HalfOpen(jul1, oct1))},
		// The same, by index name and values encoded by hand: the escape
		// hatch for an index chosen at run time.
		{"by name: GSI CustomerId + OrderStatusDate", query.On(s.orders, byStatusDate, "c1").Sort(inQ3)},
	}
	for _, qq := range queries {
		for _, desc := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/desc=%t", qq.name, desc), func(t *testing.T) {
				q := qq.q
				w := slices.Clone(want)
				if desc {
					q = q.Desc()
					slices.Reverse(w)
				}
				got, err := q.Collect(context.Background(), client)
				if err != nil {
					t.Fatal(err)
				}
				if ids := orderIDs(got); !slices.Equal(ids, w) {
					t.Fatalf("got %v, want %v", ids, w)
				}
				for _, o := range got {
					if o.Status != Cancelled || o.CustomerID != "c1" || !o.Date.Equal(dateOf(orders, o.ID)) {
						t.Fatalf("decoded %+v", o)
					}
				}
				// One item at a time, with cursors on the index's key.
				paged, pages := pageThrough(t, q, client, 1)
				if ids := orderIDs(paged); !slices.Equal(ids, w) || pages != len(w)+1 {
					t.Fatalf("paged %v in %d pages", ids, pages)
				}
			})
		}
	}

	// The LSI: c1's orders placed in Q3, any status, read consistently.
	t.Run("LSI, consistent", func(t *testing.T) {
		q := query.On(s.orders, byPlaced, "c1").Sort(placedKey.Range().HalfOpen(jul1, oct1)).ConsistentRead()
		want := []string{"o02", "o03", "o08", "o07", "o04", "o10", "o05"}
		got, err := q.Collect(context.Background(), client)
		if err != nil {
			t.Fatal(err)
		}
		paged, _ := pageThrough(t, q, client, 2)
		if ids := orderIDs(got); !slices.Equal(ids, want) || !slices.Equal(orderIDs(paged), want) {
			t.Fatalf("got %v, paged %v, want %v", ids, orderIDs(paged), want)
		}
	})
}

func orderIDs(orders []Order) []string {
	ids := make([]string, len(orders))
	for i, o := range orders {
		ids[i] = o.ID
	}
	return ids
}

func dateOf(orders []Order, id string) time.Time {
	for _, o := range orders {
		if o.ID == id {
			return o.Date
		}
	}
	return time.Time{}
}

// Seed 000: a repo with only its issues, and a repo with only its stars,
// from one item collection, by sort key ranges anchored at the repo's own
// key; the items decode each into its own entity type.
func TestSeedRepoWithIssuesOrStars(t *testing.T) {
	t.Parallel()
	client, g, _ := localGithub(t)
	write(t, client, g.table,
		g.repos.PutRequest(Repo{Name: "keyfirst", Description: "key conditions only"}),
		g.issues.PutRequest(Issue{Repo: "keyfirst", Number: 1, Title: "first"}),
		g.issues.PutRequest(Issue{Repo: "keyfirst", Number: 2, Title: "second"}),
		g.issues.PutRequest(Issue{Repo: "keyfirst", Number: 10, Title: "tenth"}),
		g.stars.PutRequest(Star{Repo: "keyfirst", User: "ada"}),
		g.stars.PutRequest(Star{Repo: "keyfirst", User: "grace"}),
		// Another repo's collection, which no query may touch.
		g.repos.PutRequest(Repo{Name: "other", Description: "x"}),
		g.issues.PutRequest(Issue{Repo: "other", Number: 3, Title: "other's"}),
		g.stars.PutRequest(Star{Repo: "other", User: "linus"}),
	)
	repo := query.CollectionOn(g.table, repoByName, "keyfirst")

	tests := []struct {
		name string
		q    query.Query[any]
		want []string
	}{
		{"repo and issues, newest first",
			repo.Sort(keys.Between(issueSK.Start(), repoSK.At("keyfirst"))).Desc(),
			[]string{"repo keyfirst", "issue 10", "issue 2", "issue 1"}},
		{"repo and stars",
			repo.Sort(keys.Between(repoSK.At("keyfirst"), starSK.End())),
			[]string{"repo keyfirst", "star ada", "star grace"}},
		{"issues only",
			repo.Sort(issueSK.Range().BeginsWith()),
			[]string{"issue 1", "issue 2", "issue 10"}},
		{"repo and stars, anchored Ge",
			repo.Sort(repoSK.At("keyfirst").Ge()),
			[]string{"repo keyfirst", "star ada", "star grace"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items, err := tt.q.Collect(context.Background(), client)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, it := range items {
				switch v := it.(type) {
				case Repo:
					got = append(got, "repo "+v.Name)
				case Issue:
					got = append(got, fmt.Sprintf("issue %d", v.Number))
				case Star:
					got = append(got, "star "+v.User)
				default:
					t.Fatalf("item of type %T", it)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}

	// The same issues, typed, from the entity.
	issues, err := query.On(g.issues, issueByNumber, "keyfirst").
		Sort(issueSK.Range().Ge(2)).Collect(context.Background(), client)
	if err != nil {
		t.Fatal(err)
	}
	if len(issues) != 2 || issues[0].Title != "second" || issues[1].Title != "tenth" {
		t.Fatalf("issues >= 2: %+v", issues)
	}
}

// Seed 003: an actor's audit events newest first, and a time window with
// BETWEEN.
func TestSeedAuditEvents(t *testing.T) {
	t.Parallel()
	client := integrationClient(t)
	table, events := localAudit(t)
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	var reqs []keyfirst.WriteRequest
	for _, e := range []Event{
		{Actor: "u_8814", At: at("2026-06-22T23:59:59Z"), Action: "login"},
		{Actor: "u_8814", At: at("2026-06-23T00:00:00Z"), Action: "view"},
		{Actor: "u_8814", At: at("2026-06-23T12:30:00Z"), Action: "edit"},
		{Actor: "u_8814", At: at("2026-06-23T23:59:59Z"), Action: "logout"},
		{Actor: "u_8814", At: at("2026-06-24T00:00:00Z"), Action: "login"},
		{Actor: "u_0001", At: at("2026-06-23T10:00:00Z"), Action: "other actor"},
	} {
		reqs = append(reqs, events.PutRequest(e))
	}
	write(t, client, table, reqs...)
	actor := query.On(events, eventsByActor, "u_8814")

	tests := []struct {
		name string
		q    query.Query[Event]
		want []string
	}{
		{"newest first", actor.Sort(eventSK.Range().BeginsWith()).Desc(),
			[]string{"2026-06-24T00:00:00Z", "2026-06-23T23:59:59Z", "2026-06-23T12:30:00Z", "2026-06-23T00:00:00Z", "2026-06-22T23:59:59Z"}},
		{"23 June, BETWEEN", actor.Sort(eventSK.Range().Between(at("2026-06-23T00:00:00Z"), at("2026-06-23T23:59:59Z"))),
			[]string{"2026-06-23T00:00:00Z", "2026-06-23T12:30:00Z", "2026-06-23T23:59:59Z"}},
		{"23 June, newest first, 2 of them", actor.Sort(eventSK.Range().Between(at("2026-06-23T00:00:00Z"), at("2026-06-23T23:59:59Z"))).Desc().Limit(2),
			[]string{"2026-06-23T23:59:59Z", "2026-06-23T12:30:00Z"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.q.Collect(context.Background(), client)
			if err != nil {
				t.Fatal(err)
			}
			var times []string
			for _, e := range got {
				if e.Actor != "u_8814" {
					t.Fatalf("event of %s", e.Actor)
				}
				times = append(times, e.At.UTC().Format(time.RFC3339))
			}
			if !slices.Equal(times, tt.want) {
				t.Fatalf("got %v, want %v", times, tt.want)
			}
		})
	}
}

// Seed 004: an actor's movies from the table, and "which actors were in
// Toy Story" through the GSI with the keys inverted: the same Query, with
// another index.
func TestSeedMoviesAndActors(t *testing.T) {
	t.Parallel()
	client := integrationClient(t)
	table, roles := newMovies(t, "MoviesAndActors")
	table = tableFor(t, table)
	roles = keyfirst.Must(roles.In(table))
	var reqs []keyfirst.WriteRequest
	for _, r := range []Role{
		{Performer: "tom-hanks", Title: "toy-story", Character: "Woody"},
		{Performer: "tom-hanks", Title: "cast-away", Character: "Chuck Noland"},
		{Performer: "tom-hanks", Title: "big", Character: "Josh Baskin"},
		{Performer: "tim-allen", Title: "toy-story", Character: "Buzz Lightyear"},
		{Performer: "don-rickles", Title: "toy-story", Character: "Mr. Potato Head"},
		{Performer: "tim-allen", Title: "galaxy-quest", Character: "Jason Nesmith"},
	} {
		reqs = append(reqs, roles.PutRequest(r))
	}
	write(t, client, table, reqs...)

	title := func(r Role) string { return r.Title + "/" + r.Character }
	performer := func(r Role) string { return r.Performer + "/" + r.Character }
	tests := []struct {
		name  string
		q     query.Query[Role]
		label func(Role) string
		want  []string
	}{
		{"tom-hanks's movies", query.On(roles, moviesOfActor, "tom-hanks"), title,
			[]string{"big/Josh Baskin", "cast-away/Chuck Noland", "toy-story/Woody"}},
		{"actors in toy-story", query.On(roles, actorsInMovie, "toy-story"), performer,
			[]string{"don-rickles/Mr. Potato Head", "tim-allen/Buzz Lightyear", "tom-hanks/Woody"}},
		{"tom-hanks's movies from c", query.On(roles, moviesOfActor, "tom-hanks").Sort(movieKey.Range().Ge("c")), title,
			[]string{"cast-away/Chuck Noland", "toy-story/Woody"}},
		{"actors in toy-story whose id begins with t", query.On(roles, actorsInMovie, "toy-story").
			Sort(actorKey.Range().HalfOpen("t", "u")), performer,
			[]string{"tim-allen/Buzz Lightyear", "tom-hanks/Woody"}},
		{"by name: actors in toy-story", query.On(roles, actorsInMovie, "toy-story"), performer,
			[]string{"don-rickles/Mr. Potato Head", "tim-allen/Buzz Lightyear", "tom-hanks/Woody"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.q.Collect(context.Background(), client)
			if err != nil {
				t.Fatal(err)
			}
			var s []string
			for _, r := range got {
				s = append(s, tt.label(r))
			}
			if !slices.Equal(s, tt.want) {
				t.Fatalf("got %v, want %v", s, tt.want)
			}
		})
	}
}
