package migrate

import (
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/keyfirst/keyfirst/internal/errfmt"
)

// The sentinel errors of the package. Match them with [errors.Is]; the typed
// errors that wrap them carry the facts and are matched with [errors.As].
var (
	// ErrInvalidBackfill: the [Backfill] cannot run as configured (see
	// [ConfigError]). Nothing was sent.
	ErrInvalidBackfill = errors.New("migrate: invalid backfill")
	// ErrCheckpoint: the checkpoint to resume from is not one of this
	// backfill (another table, name or definition), cannot be read, or
	// was changed (see [CheckpointError]). Nothing was sent.
	ErrCheckpoint = errors.New("migrate: checkpoint does not fit")
	// ErrItemFailed: an item could not be brought up to date (see
	// [Failure]).
	ErrItemFailed = errors.New("migrate: item not brought up to date")
)

// ConfigProblem says what is wrong with a [Backfill].
type ConfigProblem uint8

// The problems of [ConfigError].
const (
	ConfigNoTable         ConfigProblem = iota + 1 // Backfill.Table is nil
	ConfigNoName                                   // Backfill.Name is empty
	ConfigNoEntities                               // no entity to bring up to date, or a zero Target
	ConfigOtherTable                               // an entity bound to another table than Backfill.Table
	ConfigDuplicateEntity                          // one entity type given twice
	ConfigBudget                                   // WCU is not a number from MinWCU to MaxWCU
	ConfigSegments                                 // Segments out of range, or other than the checkpoint's
	ConfigOption                                   // another option out of range (PageSize, ProgressEvery, MaxConflicts), or an option of Run refused (a short CursorKey)
	ConfigName                                     // Backfill.Name is not valid UTF-8
	ConfigWorkers                                  // Workers or Worker out of range, or fewer Segments than Workers
)

var configProblemText = map[ConfigProblem]string{
	ConfigNoTable:         "no table",
	ConfigNoName:          "no name",
	ConfigNoEntities:      "no entity",
	ConfigOtherTable:      "entity of another table",
	ConfigDuplicateEntity: "entity type given twice",
	ConfigBudget:          "invalid write budget",
	ConfigSegments:        "invalid segments",
	ConfigOption:          "invalid option",
	ConfigName:            "invalid name",
	ConfigWorkers:         "invalid workers",
}

// String describes the problem.
func (p ConfigProblem) String() string { return errfmt.ProblemText(configProblemText, p) }

// ConfigError reports a [Backfill] that cannot run, before any request.
// It wraps [ErrInvalidBackfill].
type ConfigError struct {
	Entity  string        // the entity type concerned, if any
	Problem ConfigProblem // what is wrong
	Detail  string        // the facts and what to do instead
	Err     error         // the cause, if any: a *keyfirst.OptionError for an option
}

// Error describes the failure with its facts.
func (e *ConfigError) Error() string {
	return errfmt.Describe(ErrInvalidBackfill, e.Problem.String(), errfmt.Detail(e.Detail, e.Err), "entity", e.Entity)
}

// Unwrap returns [ErrInvalidBackfill] and the cause.
func (e *ConfigError) Unwrap() []error { return errfmt.Causes(ErrInvalidBackfill, e.Err) }

// CheckpointProblem says why a checkpoint cannot resume a backfill.
type CheckpointProblem uint8

// The problems of [CheckpointError].
const (
	CheckpointCorrupt    CheckpointProblem = iota + 1 // the serialised checkpoint cannot be read
	CheckpointTable                                   // it was taken on another table
	CheckpointName                                    // it was taken by a backfill of another name
	CheckpointDefinition                              // it was taken with other entity definitions
	CheckpointDryRun                                  // a dry run's checkpoint for a real run, or the reverse
	// CheckpointTampered: the checkpoint was changed since a run wrote it
	// (its checksum or signature does not verify), or it is unsigned for
	// a backfill run with a CursorKey, or signed for one without.
	CheckpointTampered
	CheckpointWorker // it was taken by another worker of the backfill, or by a backfill not split the same way
)

var checkpointProblemText = map[CheckpointProblem]string{
	CheckpointCorrupt:    "unreadable checkpoint",
	CheckpointTable:      "checkpoint of another table",
	CheckpointName:       "checkpoint of another backfill",
	CheckpointDefinition: "checkpoint of other entity definitions",
	CheckpointDryRun:     "checkpoint of another mode",
	CheckpointTampered:   "changed checkpoint",
	CheckpointWorker:     "checkpoint of another worker",
}

// String describes the problem.
func (p CheckpointProblem) String() string { return errfmt.ProblemText(checkpointProblemText, p) }

// CheckpointError reports a checkpoint that cannot resume the backfill it
// is given to, before any request. It wraps [ErrCheckpoint].
type CheckpointError struct {
	Problem   CheckpointProblem // what is wrong
	Want, Got string            // what the backfill has and what the checkpoint holds
	Err       error             // the cause, for CheckpointCorrupt and CheckpointTampered
}

// Error describes the failure with its facts.
func (e *CheckpointError) Error() string {
	detail := ""
	if e.Want != "" || e.Got != "" {
		detail = fmt.Sprintf("the backfill has %q, the checkpoint %q", e.Want, e.Got)
	}
	return errfmt.Describe(ErrCheckpoint, e.Problem.String(), errfmt.Detail(detail, e.Err))
}

// Unwrap returns [ErrCheckpoint] and the cause.
func (e *CheckpointError) Unwrap() []error { return errfmt.Causes(ErrCheckpoint, e.Err) }

// Failure is an item the backfill could not bring up to date: not
// decodable into its entity type, of an entity type no entity of the
// table has, whose keys cannot be derived, whose primary key the
// definition now derives otherwise, or that kept changing under the
// backfill's writes. It wraps [ErrItemFailed] and the cause (a
// [keyfirst.ItemError], [keyfirst.EntityTypeError],
// [keyfirst.KeyChangedError], [keyfirst.ConditionError]...).
type Failure struct {
	// Entity is the item's entity type, "" when it has none.
	Entity string
	// Key holds the item's primary key attributes, as stored.
	Key map[string]types.AttributeValue
	// KeyText prints the key as keyfirst.Key.String does.
	KeyText string
	// Err is the cause.
	Err error
}

// Error describes the failure with the item's key.
func (f *Failure) Error() string {
	return fmt.Sprintf("%v: %s %s: %v", ErrItemFailed, f.Entity, f.KeyText, f.Err)
}

// Unwrap returns [ErrItemFailed] and the cause.
func (f *Failure) Unwrap() []error { return errfmt.Causes(ErrItemFailed, f.Err) }
