package medium

import (
	"errors"
	"math/rand/v2"
	"time"

	"github.com/airq/airq/internal/eventq"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/study/kernel/hwsimnl"
)

// Config sets the medium up.
type Config struct {
	Link         Link
	MaxSubframes int    // per A-MPDU (64)
	MaxPPDU      uint32 // µs of an A-MPDU's data part (4000)
	Signal       int32  // dBm reported for every frame
	Seed         uint64 // of the backoff draws
}

// hwsim's netlink path drops pending frames (oldest first, down to
// warnQueue) when a radio has maxQueue without a TX status.
const (
	maxQueue  = 200
	warnQueue = 100
	cwMax     = 1023
)

// Sink receives what the medium produces, in time order.
type Sink interface {
	// Deliver hands frame data to radio rx (its hardware address).
	Deliver(rx ieee80211.MAC, data []byte, rxRate, freq uint32, signal int32)
	// Status returns the TX status of a frame of radio tx.
	Status(t *hwsimnl.TxInfo)
}

type frame struct {
	cookie uint64
	data   []byte
	flags  uint32
	freq   uint32
	rates  [hwsimnl.MaxRates]hwsimnl.TxRate
	seq    uint64 // submission order on its radio
	dead   bool   // dropped by the driver (maxQueue): no status
}

type queue struct {
	r       *radioState
	ac      ieee80211.AC
	frames  []*frame
	backoff uint32        // slots drawn for the next access
	since   time.Duration // when it last became non-empty
}

type radioState struct {
	hw          ieee80211.MAC
	addrs       map[ieee80211.MAC]bool
	q           [ieee80211.NumACs]queue
	outstanding int // frames submitted without a status (hwsim's pending)
	seq         uint64
}

type channel struct {
	freq      uint32
	busy      bool
	idleSince time.Duration
	gen       uint64 // invalidates a scheduled access when contenders change
}

type evKind uint8

const (
	evAccess evKind = iota
	evDeliver
	evStatus
)

type event struct {
	kind evKind
	ch   *channel
	gen  uint64
	tx   *exchange
}

// exchange is one frame exchange on the air: a PPDU (A-MPDU or MPDU) and
// its retries.
type exchange struct {
	q      *queue
	frames []*frame
	rx     *radioState // nil: group addressed
	ok     bool
	rates  [hwsimnl.MaxRates]hwsimnl.TxRate // attempts made
	rxRate uint32                           // legacy index the receiver is told
}

// Medium is mac80211_hwsim's air: radios, one contention domain per
// frequency, EDCA access, aggregation and aql's airtimes. It is pure:
// the caller passes the time and carries the Sink's output to the driver.
type Medium struct {
	cfg     Config
	radios  map[ieee80211.MAC]*radioState
	order   []*radioState // in the order they became known: ties go to the first
	chans   map[uint32]*channel
	evq     eventq.Queue[event]
	rng     *rand.Rand
	b5, b2  *band
	st      Stats
	scratch []int
}

// ErrConfig reports an unusable Config.
var ErrConfig = errors.New("medium: MaxSubframes 1-64 and MaxPPDU > 0 are required")

// New returns an empty medium.
func New(cfg Config) (*Medium, error) {
	if cfg.MaxSubframes < 1 || cfg.MaxSubframes > 64 || cfg.MaxPPDU == 0 {
		return nil, ErrConfig
	}
	return &Medium{
		cfg:    cfg,
		radios: map[ieee80211.MAC]*radioState{},
		chans:  map[uint32]*channel{},
		rng:    rand.New(rand.NewPCG(cfg.Seed, 0x6d656469756d)),
		b5:     newBand(false),
		b2:     newBand(true),
	}, nil
}

// AddRadio makes radio hw (hwsim's addresses[1]) known, with interface
// addresses addrs, before it transmits: a radio hears nothing until then.
func (m *Medium) AddRadio(hw ieee80211.MAC, addrs ...ieee80211.MAC) {
	r := m.radio(hw)
	for _, a := range addrs {
		r.addrs[a] = true
	}
}

func (m *Medium) radio(hw ieee80211.MAC) *radioState {
	r := m.radios[hw]
	if r == nil {
		r = &radioState{hw: hw, addrs: map[ieee80211.MAC]bool{}}
		for ac := range r.q {
			r.q[ac] = queue{r: r, ac: ieee80211.AC(ac)}
		}
		m.radios[hw] = r
		m.order = append(m.order, r)
	}
	return r
}

// ChangeAddr applies HWSIM_CMD_ADD_MAC_ADDR / _DEL_MAC_ADDR.
func (m *Medium) ChangeAddr(a hwsimnl.AddrChange) {
	r := m.radio(a.Transmitter)
	if a.Add {
		r.addrs[a.Receiver] = true
	} else {
		delete(r.addrs, a.Receiver)
	}
}

func (m *Medium) band(freq uint32) *band {
	if is2GHz(freq) {
		return m.b2
	}
	return m.b5
}

func (m *Medium) channel(freq uint32) *channel {
	c := m.chans[freq]
	if c == nil {
		c = &channel{freq: freq}
		m.chans[freq] = c
	}
	return c
}

// acOf is the access category a frame goes out in: QoS data by its TID,
// management and control frames at VO (mac80211 sends them there), other
// data at BE.
func acOf(data []byte) ieee80211.AC {
	f, err := ieee80211.ParseFrame(data)
	switch {
	case err != nil:
		return ieee80211.ACBE
	case f.IsQoS():
		return ieee80211.TIDToAC(f.TID())
	case f.Type() == ieee80211.TypeData:
		return ieee80211.ACBE
	}
	return ieee80211.ACVO
}

// Submit queues a frame the driver handed over at now. f.Data is copied.
func (m *Medium) Submit(now time.Duration, f *hwsimnl.Frame) {
	r := m.radio(f.Transmitter)
	if hdr, err := ieee80211.ParseFrame(f.Data); err == nil && len(f.Data) >= 16 {
		if a := hdr.Addr2(); !a.IsMulticast() && !a.IsZero() {
			r.addrs[a] = true // the interface was added before the medium registered
		}
	}
	if r.outstanding >= maxQueue {
		m.driverDrop(r)
	}
	r.outstanding++
	m.st.outstandingMax(r.outstanding)
	r.seq++
	fr := &frame{cookie: f.Cookie, data: append([]byte(nil), f.Data...), flags: f.Flags, freq: f.Freq, rates: f.Rates, seq: r.seq}
	q := &r.q[acOf(f.Data)]
	if len(q.frames) == 0 {
		q.since = now
		q.backoff = m.draw(m.band(f.Freq).cw[q.ac])
	}
	q.frames = append(q.frames, fr)
	m.st.Frames++
	c := m.channel(f.Freq)
	if !c.busy {
		m.schedule(now, c)
	}
}

// driverDrop mirrors mac80211_hwsim_tx_frame_nl: with maxQueue frames
// pending it frees the oldest until warnQueue remain; they get no status.
func (m *Medium) driverDrop(r *radioState) {
	for r.outstanding >= warnQueue {
		var old *frame
		for ac := range r.q {
			for _, f := range r.q[ac].frames {
				if !f.dead && (old == nil || f.seq < old.seq) {
					old = f
				}
			}
		}
		if old == nil {
			return // all on the air: their statuses will find nothing
		}
		old.dead = true
		r.outstanding--
		m.st.DriverDropped++
	}
}

func (m *Medium) draw(cw uint32) uint32 { return uint32(m.rng.IntN(int(cw) + 1)) }

// winner is the queue that gets idle channel c first (AIFS + its drawn
// backoff after the channel or the queue became ready; no collisions: a
// tie goes to the higher AC, then to the radio known first) and when.
func (m *Medium) winner(c *channel) (*queue, time.Duration) {
	best, at := (*queue)(nil), time.Duration(0)
	b := m.band(c.freq)
	for _, r := range m.order {
		for ac := range r.q {
			q := &r.q[ac]
			if len(q.frames) == 0 || q.frames[0].freq != c.freq {
				continue
			}
			t := max(c.idleSince, q.since) + us(b.aifs[q.ac]+q.backoff*b.slot)
			if best == nil || t < at || t == at && q.ac < best.ac {
				best, at = q, t
			}
		}
	}
	return best, at
}

// schedule (re)computes when idle channel c is next taken.
func (m *Medium) schedule(now time.Duration, c *channel) {
	c.gen++
	if q, at := m.winner(c); q != nil {
		m.evq.Push(max(at, now), event{kind: evAccess, ch: c, gen: c.gen})
	}
}

func us(v uint32) time.Duration { return time.Duration(v) * time.Microsecond }
