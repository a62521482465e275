package keyfirst

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/avequal"
)

// sameAttributes reports whether items a and b hold the same values, as
// DynamoDB's = compares them, for each of names (absent in both counts as
// the same).
func sameAttributes(names []string, a, b map[string]types.AttributeValue) bool {
	for _, n := range names {
		if !avequal.Equal(a[n], b[n]) {
			return false
		}
	}
	return true
}
