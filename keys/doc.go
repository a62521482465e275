// Package keys encodes typed values into DynamoDB key strings whose byte
// order is the values' order, and builds exact key conditions from typed
// values. It is pure: no SDK, no network, standard library only.
//
// DynamoDB sorts string keys by their UTF-8 bytes, so a key condition
// filters correctly only when the encoded bytes sort like the values. The
// usual hand-written encodings get this partly wrong: padStart turns -5
// into 0-5 and truncates silently on overflow, RFC 3339 with nanoseconds
// has a variable width and keeps the zone, and an identifier containing
// the separator forges a segment boundary. This package refuses all of
// that with typed errors, and its fuzz tests prove the properties below.
//
// # Codecs
//
// A [Codec] encodes one segment. Every codec is order-preserving (x < y
// exactly when the encoding of x sorts before the encoding of y),
// injective, decodes exactly the strings it produces, and never emits the
// separator:
//
//   - [Enum]: a closed set of values of your own string type, encoded as
//     themselves; anything else is [ErrNotInEnum], on encode and on decode.
//   - [ID]: an identifier encoded as itself; the empty string, the
//     separator, ASCII control characters (DEL included), space and the
//     punctuation at or below
//     the separator's successor are refused, not escaped ([IDOptions] sets a
//     maximum length).
//   - [Time]: ISO-8601 in UTC at a fixed [Precision] ([Day], a date such as
//     2019-07-01; [Second], [Milli], [Micro], [Nano]), fixed width,
//     optionally with the "Z" designator ([WithZ], not on a date); other
//     zones become the same UTC instant (at [Day], its UTC date), digits
//     below the precision are truncated, years outside 0000-9999 are
//     [ErrOutOfRange].
//   - [Int] and [Uint]: fixed width, zero-padded; negative values are '-'
//     and the ten's complement, so -10 < -5 < -1 < 0 < 7 byte-wise; a value
//     that does not fit is [ErrOutOfRange], never truncated.
//   - [Literal]: a constant segment, an entity-type marker.
//
// # Composite keys
//
// [Key1], [Key2], [Key3] and [Key4] join one to four codecs with a
// separator ('#' unless [WithSeparator] says otherwise), after an optional
// literal prefix ([WithPrefix]): [NewKey3](status, Time(Micro),
// Uint[uint64](10)) encodes CANCELLED#2019-07-01T00:00:00.000000#0000012345.
// Encode allocates only the resulting string; Append allocates nothing
// when the buffer is large enough; Decode allocates nothing. Build keys
// once, at package level, with [Must]; they are immutable and safe for
// concurrent use.
//
// The separator sorts below every character a segment may contain, and so
// does its successor ('$' for '#'). The first fact makes concatenation
// preserve order: the byte order of keys is the lexicographic order of the
// typed tuples, even when a value is a prefix of another (CANCELLED sorts
// before CANCELLEDX, and so does every key that starts CANCELLED#). The
// second gives every range an exact bound that no key can equal.
//
// # Enum first
//
// A composite sort key built for filtering leads with its low-cardinality
// segment, the enum: status#date groups each status into one contiguous
// run, ordered by date, so "CANCELLED orders from July through September"
// is one BETWEEN inside the CANCELLED run. The other order, date#status,
// is useless for that question: it interleaves the statuses (2019-07-01
// ACTIVE, 2019-07-01 CANCELLED, 2019-07-02 ACTIVE...), so a key condition
// can only select the dates, and the status is left to a filter expression
// that reads, and bills, every order of the quarter (seed 000). A wrong
// order cannot be fixed at query time: it needs a new attribute, a new
// index and a backfill. Making the enum the first type parameter, as in
// Key2[Status, time.Time], is what the With1 .. With3 methods reward: they
// fix the leading segments and range over the next one.
//
// # Conditions
//
// [Key3.Range] returns a [Range] over the first segment, [Key3.With1] over
// the second with the first fixed, [Key3.With2] over the third with the
// first two fixed. A Range's Eq, Lt, Le, Gt, Ge, Between, HalfOpen and
// BeginsWith return a [Cond]: one DynamoDB sort key condition ([Op] and
// operands, [Cond.Values]) that selects exactly the keys whose fixed
// segments are equal and whose ranged segment satisfies the comparison at
// the codec's precision, whatever follows it. Le(v) includes every longer
// key whose segment equals v and Lt(v) excludes them; a prefix never
// matches CANCELLEDX when it means CANCELLED. When something precedes the
// ranged segment, the condition becomes a BETWEEN inside that prefix,
// because DynamoDB allows one condition per sort key.
//
// "CANCELLED orders from 1 July through 30 September" is
//
//	orderStatusDate.With1("CANCELLED").HalfOpen(jul1, oct1)
//
// which renders BETWEEN "CANCELLED#2019-07-01T00:00:00.000000" AND
// "CANCELLED#2019-09-30T23:59:59.999999": [Range.HalfOpen] takes the first
// instant after the window, and the bound is the last instant before it at
// the codec's precision. [Range.Between] is inclusive at both ends, and an
// inclusive time bound is an instant, not a day: Between(jul1, sep30) ends
// at 30 September 00:00:00 and leaves out the rest of that day; the whole
// day is HalfOpen(jul1, sep30.AddDate(0, 0, 1)).
//
// An [Anchor] is a whole key used as a bound, for partitions that mix key
// shapes (seed 000: a repo's key REPO#<name> sorts between its ISSUE# and
// STAR# items): [Between](issueSK.Start(), repoSK.At(name)) reads the repo
// and its issues, [Between](repoSK.At(name), starSK.End()) the repo and its
// stars.
//
// # Definitions
//
// Every NewKeyN call creates a definition with an identity, a [DefID]
// shared by copies of the key. A [Cond] remembers the definitions it was
// built from ([Cond.Defs], [Cond.BuiltFrom]; two for a Between of anchors
// of two keys), so that a query can refuse a condition built from another
// key. Code that binds keys of any arity uses [Def]: a Key1[A] is a
// Def[A], a Key2[A, B] a Def[T2[A, B]] (its value as one [T2], built with
// [Of2]), Key3 and Key4 Defs of [T3] and [T4].
//
// # Unique time-ordered keys
//
// Sort keys are unique within a partition; when two events can share a
// timestamp, put a disambiguator after the time (seed 003):
// Key2[time.Time, uint32] with WithPrefix("EVT") encodes
// EVT#2026-06-23T00:00:00Z#0000000001. A Range over the time still selects
// every event of its window, whatever its sequence number, because its
// inclusive bounds include every longer key whose time equals the bound.
//
// # Native multi-attribute keys
//
// Since November 2025 a GSI may have up to four partition key and four
// sort key attributes. The same key definition describes such an index:
// [Key2.Parts] gives one attribute value per typed segment (no prefix, no
// separator), and [Cond.Native] renders a condition as a [NativeCond],
// equality on the leading attributes and one comparison on the next. A
// prefix of whole segments is equality on those attributes alone. The
// modelling rules are the same: enum first, key condition, no filter.
//
// # Errors
//
// Errors match a few sentinels with [errors.Is] ([ErrSeparator],
// [ErrReserved], [ErrEmpty], [ErrTooLong], [ErrNotInEnum],
// [ErrOutOfRange], [ErrMalformed], [ErrEmptyRange], [ErrNoCondition],
// [ErrNotNative], [ErrDefinition]); errors about one segment are a
// [*SegmentError] naming the segment, its codec and the offending value.
// Codec constructors never fail: an invalid definition is kept and
// reported by [NewKey1] .. [NewKey4] (and by every method of the codec).
package keys
