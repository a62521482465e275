package keyfirst

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// ItemRoom builds the item of v as a write of version does (-1: T's own)
// and returns the attributes its map was made for and those it has.
func ItemRoom[T any](e *Entity[T], v T, version int64) (room, have int, err error) {
	p, err := e.plan(&v, version)
	return p.room, len(p.item), err
}

// PlannedSize builds the item of v as a write of version does (-1: T's
// own) and returns it with the size its plan counted.
func PlannedSize[T any](e *Entity[T], v T, version int64) (map[string]types.AttributeValue, int, error) {
	p, err := e.plan(&v, version)
	return p.item, p.size, err
}
