package snippet

import (
	"time"

	"github.com/keyfirst/keyfirst/keys"
)

// Status is the enum that leads orderStatusDate.
type Status string

// orderStatusDate is the doc's CANCELLED#2019-07-01T00:00:00.000000, and
// jul1 and oct1 the quarter's bounds.
var (
	orderStatusDate = keys.NewKey2(keys.Enum[Status]("PENDING", "CANCELLED"), keys.Time(keys.Micro))
	jul1            = time.Date(2019, 7, 1, 0, 0, 0, 0, time.UTC)
	oct1            = time.Date(2019, 10, 1, 0, 0, 0, 0, time.UTC)
)
