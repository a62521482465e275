package stream

import (
	"errors"
	"fmt"

	"github.com/keyfirst/keyfirst/internal/errfmt"
)

// Sentinels, matched with errors.Is; the typed errors below wrap them.
var (
	// ErrBadRecord: a stream record that cannot be read as a change of
	// the table ([*RecordError]).
	ErrBadRecord = errors.New("stream: bad record")
	// ErrUnknownType: a record of an item whose entity type is not
	// registered on the table ([*TypeError]).
	ErrUnknownType = errors.New("stream: record of an unknown entity type")
	// ErrOtherType: a record of another entity type than the one asked
	// for ([*TypeError]).
	ErrOtherType = errors.New("stream: record of another entity type")
	// ErrTypeChanged: a record whose old and new images are of two entity
	// types ([*TypeError]).
	ErrTypeChanged = errors.New("stream: entity type changed between the images")
	// ErrUnhandled: a record of an entity type no handler of the [Router]
	// takes ([*TypeError]).
	ErrUnhandled = errors.New("stream: record no handler takes")
	// ErrStreamView: a table or a record whose stream does not carry both
	// images, which a [Change] needs.
	ErrStreamView = errors.New("stream: the stream does not carry both images (NEW_AND_OLD_IMAGES)")
	// ErrHandlers: handlers that [NewRouter] refuses.
	ErrHandlers = errors.New("stream: invalid handlers")
	// ErrRunning: a second [Consumer.Run] of one consumer.
	ErrRunning = errors.New("stream: the consumer runs already, or has run")
	// ErrCheckpoint: a checkpoint that is not of the consumer's stream.
	ErrCheckpoint = errors.New("stream: checkpoint of another stream")
)

// RecordProblem says what is wrong with a record.
type RecordProblem uint8

// The problems of a [*RecordError].
const (
	RecordOperation RecordProblem = iota + 1 // an event name that is no known operation
	RecordAttribute                          // an attribute value of a type no AttributeValue has
	RecordImages                             // an image missing for the operation, or one the operation has not
	RecordKeys                               // keys missing, or an image whose key is not the record's
	RecordTable                              // a record of another table's stream
	RecordView                               // a record of a stream that does not carry both images
	RecordSequence                           // no sequence number
	RecordDecode                             // an image that does not decode into its entity's Go type
)

var recordProblemText = map[RecordProblem]string{
	RecordOperation: "unknown operation",
	RecordAttribute: "unknown attribute type",
	RecordImages:    "images do not match the operation",
	RecordKeys:      "keys missing or not the images'",
	RecordTable:     "record of another table",
	RecordView:      "stream without both images",
	RecordSequence:  "no sequence number",
	RecordDecode:    "image does not decode",
}

// String describes the problem.
func (p RecordProblem) String() string { return errfmt.ProblemText(recordProblemText, p) }

// RecordError reports a record that cannot be read as a change: it wraps
// [ErrBadRecord] (and [ErrStreamView] for [RecordView]) and the cause, if
// any (the decoder's error for [RecordDecode]).
type RecordError struct {
	EventID        string
	SequenceNumber string
	Problem        RecordProblem
	Detail         string
	Err            error
}

// Error describes the record and the problem.
func (e *RecordError) Error() string {
	s := fmt.Sprintf("%v: %v (event %q, sequence number %q)", ErrBadRecord, e.Problem, e.EventID, e.SequenceNumber)
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns [ErrBadRecord], [ErrStreamView] for a [RecordView], and the
// cause.
func (e *RecordError) Unwrap() []error {
	out := []error{ErrBadRecord}
	if e.Problem == RecordView {
		out = append(out, ErrStreamView)
	}
	if e.Err != nil {
		out = append(out, e.Err)
	}
	return out
}

// TypeError reports a record whose entity type is not the one wanted: an
// unknown one ([ErrUnknownType]), another one ([ErrOtherType]), one that
// changed between the images ([ErrTypeChanged]), or one that no handler
// takes ([ErrUnhandled]). Such records are reported, never dropped: the
// [Record] is kept.
type TypeError struct {
	Record Record
	// Old and New are the entity types of the images ("" without the
	// image, or without the entity-type attribute); Want the type asked
	// for, if any.
	Old, New, Want string
	Err            error // one of the sentinels above
}

// Error describes the record and the types.
func (e *TypeError) Error() string {
	return fmt.Sprintf("%v (event %q, sequence number %q): old image %q, new image %q%s",
		e.Err, e.Record.EventID, e.Record.SequenceNumber, e.Old, e.New, map[bool]string{true: fmt.Sprintf(", want %q", e.Want)}[e.Want != ""])
}

// Unwrap returns the sentinel.
func (e *TypeError) Unwrap() error { return e.Err }
