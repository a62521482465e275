package migrate_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"os/signal"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/keyfirst/keyfirst"
	"github.com/keyfirst/keyfirst/integration"
	"github.com/keyfirst/keyfirst/migrate"
)

// Seed 000's fix as a program: the orders gain the enum-first index
// ByStatusDate, and a backfill brings the stored ones up to date. It
// first reports what would change, then runs within 100 WCU/s, printing
// its progress every second and saving its checkpoint, so that a run
// stopped with Ctrl-C (or killed) continues where it stopped the next
// time. (Here on an empty table in DynamoDB Local; pass your
// *dynamodb.Client and your table's name.)
func ExampleBackfill() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	local, err := integration.Start(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer local.Close()

	desc := keyfirst.Must(keyfirst.NewTable(shopSpec()))
	table := keyfirst.Must(desc.Named("orders"))
	if _, err := local.Client.CreateTable(ctx, table.CreateTableInput()); err != nil {
		log.Fatal(err)
	}
	waiter := dynamodb.NewTableExistsWaiter(local.Client)
	if err := waiter.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table.Name())}, time.Minute); err != nil {
		log.Fatal(err)
	}
	orders := keyfirst.Must(keyfirst.NewEntity(table, keyfirst.EntitySpec[Order]{Type: "Order", Keys: []keyfirst.Binding{
		orderByID.Fields("CustomerID", "ID"),
		byDateStatus.Fields("CustomerID", "Date", "Status"), // the old index, still read
		byStatusDate.Fields("CustomerID", "Status", "Date"), // the new one
	}}))

	b := &migrate.Backfill{
		Name:     "orders-status-first",
		Table:    table,
		Entities: []migrate.Target{migrate.Entity(orders)},
		WCU:      100,
		DryRun:   true,
	}
	dry, err := b.Run(ctx, local.Client)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d of %d orders to change, %.0f WCU, about %s at %.0f WCU/s\n", dry.Changed, dry.Scanned, dry.EstimatedWCU,
		time.Duration(dry.EstimatedWCU/b.WCU*float64(time.Second)).Round(time.Second), b.WCU)
	for index, ix := range dry.Indexes {
		fmt.Printf("  %s: %d enter, %d leave, %d move, %d update\n", index, ix.Enter, ix.Leave, ix.Move, ix.Update)
	}

	const saved = "orders-status-first.checkpoint"
	b.DryRun = false
	if data, err := os.ReadFile(saved); err == nil {
		if b.Resume, err = migrate.ParseCheckpoint(data); err != nil {
			log.Fatal(err)
		}
	}
	b.Progress = func(p migrate.Progress) {
		fmt.Println(p) // 1200 scanned (400/s), 300 changed, ...; about 25s left
		if data, err := p.Checkpoint.MarshalJSON(); err == nil {
			_ = os.WriteFile(saved, data, 0o600)
		}
	}
	b.OnFailure = func(f *migrate.Failure) { fmt.Println(f) } // the item's key and why
	report, err := b.Run(ctx, local.Client)
	if errors.Is(err, context.Canceled) {
		fmt.Println("stopped; run again to resume")
		return
	}
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("done: %d changed, %d failed, %.1f WCU/s\n", report.Changed, report.Failed, report.WCUPerSecond())
	_ = os.Remove(saved)
}
