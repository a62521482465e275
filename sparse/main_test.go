package sparse_test

import (
	"testing"

	"github.com/keyfirst/keyfirst/integration"
)

// TestMain ends the DynamoDB Local container the integration tests share.
func TestMain(m *testing.M) { integration.Main(m) }
