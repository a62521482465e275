package keyfirst_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst"
)

func TestCapacityAddsUp(t *testing.T) {
	cc := func(total, table float64, gsi, lsi map[string]float64) types.ConsumedCapacity {
		c := types.ConsumedCapacity{CapacityUnits: aws.Float64(total), Table: &types.Capacity{CapacityUnits: aws.Float64(table)}}
		for n, v := range gsi {
			if c.GlobalSecondaryIndexes == nil {
				c.GlobalSecondaryIndexes = map[string]types.Capacity{}
			}
			c.GlobalSecondaryIndexes[n] = types.Capacity{CapacityUnits: aws.Float64(v)}
		}
		for n, v := range lsi {
			if c.LocalSecondaryIndexes == nil {
				c.LocalSecondaryIndexes = map[string]types.Capacity{}
			}
			c.LocalSecondaryIndexes[n] = types.Capacity{CapacityUnits: aws.Float64(v)}
		}
		return c
	}
	var c keyfirst.Capacity
	c.AddWrite(cc(4, 1, map[string]float64{"GSI1": 1, "GSI2": 1}, map[string]float64{"LSI1": 1}))
	c.AddWrite(cc(2, 1, map[string]float64{"GSI1": 1}, nil))
	c.AddRead(cc(0.5, 0.5, nil, nil), types.ConsumedCapacity{}) // a response without figures counts as a request
	if c.Total != 6.5 || c.Write != 6 || c.Read != 0.5 || c.Table != 2.5 || c.Requests != 4 {
		t.Fatalf("%+v", c)
	}
	if c.Indexes["GSI1"] != 2 || c.Indexes["GSI2"] != 1 || c.Indexes["LSI1"] != 1 || len(c.Indexes) != 3 {
		t.Fatalf("indexes %v", c.Indexes)
	}
}
