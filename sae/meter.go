package sae

// opKind names the operations the hunting-and-pecking loop is measured
// by: field exponentiations, multiplications and additions, constant-time
// selects, the octets they move, HMAC computations and random draws.
type opKind int

const (
	opExp opKind = iota
	opMul
	opAdd
	opSelect
	opSelectBytes
	opHMAC
	opRand
	nOps
)

// opCounts is one iteration's (or one run's) operation counts.
type opCounts [nOps]int

// meter counts operations for tests; production code passes a nil
// meter, and add is one predictable branch on that pointer, which does
// not depend on any secret.
type meter struct {
	iter []opCounts // per hunting-and-pecking iteration
	// miss, when set, turns a hit into a miss at the counters it names,
	// through the same constant-time path, so that a test can make the
	// first hit come at iteration 40 without searching 2^40 passwords.
	miss func(counter int) bool
}

func (m *meter) add(k opKind, n int) {
	if m != nil {
		m.iter[len(m.iter)-1][k] += n
	}
}

// next starts the counts of a new iteration.
func (m *meter) next() {
	if m != nil {
		m.iter = append(m.iter, opCounts{})
	}
}

// missAt reports whether a test asks for a miss at counter.
func (m *meter) missAt(counter int) int {
	if m != nil && m.miss != nil && m.miss(counter) {
		return 1
	}
	return 0
}
