package keyfirst

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// Capacity adds up the capacity consumed by requests: pass one to an
// operation with [WithCapacity] to see what the call cost, in total, on the
// table and on each index. The zero value is ready to use. A Capacity is
// not safe for concurrent use: give each goroutine its own.
type Capacity struct {
	// Total is the sum of the capacity units of every request.
	Total float64
	// Read and Write split Total by the kind of request.
	Read, Write float64
	// Table is the part consumed on the table itself.
	Table float64
	// Indexes is the part consumed on each secondary index, by name.
	Indexes map[string]float64
	// Requests counts the requests that reported capacity.
	Requests int
}

// AddRead adds the capacity reported by read requests (GetItem,
// BatchGetItem, Query).
func (c *Capacity) AddRead(cc ...types.ConsumedCapacity) { c.add(false, cc) }

// AddWrite adds the capacity reported by write requests.
func (c *Capacity) AddWrite(cc ...types.ConsumedCapacity) { c.add(true, cc) }

// Add adds the figures of o to c: the total of calls that each had a
// Capacity of their own (shards, segments).
func (c *Capacity) Add(o Capacity) {
	c.Total += o.Total
	c.Read += o.Read
	c.Write += o.Write
	c.Table += o.Table
	c.Requests += o.Requests
	for name, u := range o.Indexes {
		if c.Indexes == nil {
			c.Indexes = map[string]float64{}
		}
		c.Indexes[name] += u
	}
}

func (c *Capacity) addOne(write bool, cc *types.ConsumedCapacity) {
	if cc != nil {
		c.add(write, []types.ConsumedCapacity{*cc})
	}
}

func (c *Capacity) add(write bool, cc []types.ConsumedCapacity) {
	if c == nil {
		return
	}
	for _, x := range cc {
		c.Requests++
		units := deref(x.CapacityUnits)
		c.Total += units
		if write {
			c.Write += units
		} else {
			c.Read += units
		}
		if x.Table != nil {
			c.Table += deref(x.Table.CapacityUnits)
		}
		for _, m := range []map[string]types.Capacity{x.GlobalSecondaryIndexes, x.LocalSecondaryIndexes} {
			for name, ic := range m {
				if c.Indexes == nil {
					c.Indexes = map[string]float64{}
				}
				c.Indexes[name] += deref(ic.CapacityUnits)
			}
		}
	}
}

func deref(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}
