package ackmiss

// Threshold is the default number of sightings of one sequence that counts
// as a missing ACK: the first transmission and three retries. Stations'
// short retry limits are 4 to 7 (mac80211's default 7, hwsim's rate table
// 4 per rate), and a lost ACK now and then costs one or two retries.
const Threshold = 4

// slots is the table's size: a transmitter evicts another only when they
// share a slot, and then the watch undercounts; it never overcounts.
const slots = 64

// Counts are a watch's counters since it began.
type Counts struct {
	Frames  uint64 // unicast frames to the BSSID fed to the watch
	Retries uint64 // of which the Retry bit was set
	// Unanswered counts sequences seen Threshold times: frames the
	// hardware did not ACK (or whose ACKs were lost each time).
	Unanswered uint64
}

type entry struct {
	ta     [6]byte
	seqCtl uint16
	seen   uint16 // sightings of (ta, seqCtl); 0: empty slot
}

// Watch counts one BSSID's unanswered frames. The zero value is not
// usable; call New.
type Watch struct {
	threshold uint16
	seed      uint32
	counts    Counts
	table     [slots]entry
}

// New returns a watch that counts a sequence as unanswered when it is seen
// threshold times (at least 2; Threshold is the default). seed (for
// example from the BSSID) varies which transmitters share a slot from one
// watch to the next.
func New(threshold int, seed uint32) *Watch {
	return &Watch{threshold: uint16(min(max(threshold, 2), 1<<15)), seed: seed}
}

// Frame records one unicast frame addressed to the BSSID: its transmitter
// address, its Sequence Control field (sequence number and fragment
// number) and its Retry bit. It reports whether this frame made its
// sequence reach the threshold: it is true once per unanswered frame.
func (w *Watch) Frame(ta [6]byte, seqCtl uint16, retry bool) bool {
	w.counts.Frames++
	e := &w.table[w.slot(ta)]
	if !retry {
		*e = entry{ta: ta, seqCtl: seqCtl, seen: 1}
		return false
	}
	w.counts.Retries++
	if e.seen == 0 || e.ta != ta || e.seqCtl != seqCtl {
		// the first transmission was lost, or its slot reused since: this
		// retry is the first sighting the watch has
		*e = entry{ta: ta, seqCtl: seqCtl, seen: 1}
		return false
	}
	if e.seen < w.threshold {
		e.seen++
		if e.seen == w.threshold {
			w.counts.Unanswered++
			return true
		}
	}
	return false
}

// Counts returns the counters.
func (w *Watch) Counts() Counts { return w.counts }

func (w *Watch) slot(ta [6]byte) uint32 {
	h := 2166136261 ^ w.seed
	for _, b := range ta {
		h = (h ^ uint32(b)) * 16777619
	}
	return h % slots
}
