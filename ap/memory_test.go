package ap

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"
	"time"
	"unsafe"

	"github.com/airq/airq/aql"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/internal/readmetest"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/txq"
)

// airDriver feeds the core frames from many stations without allocating:
// every buffer is reused. ack decides whether a station acknowledges the
// frames the core sends it (their echoes say so).
type airDriver struct {
	a      *AP
	now    time.Duration
	seq    uint16
	ack    func(ieee80211.MAC) bool
	rt     []byte
	buf    []byte
	echoes [][]byte
	n      int
	// replaying: the echoes are being handed back; frames written now
	// get none
	replaying bool
}

func newAirDriver(tb testing.TB, cfg Config, ack func(ieee80211.MAC) bool) *airDriver {
	cfg.SSID, cfg.BSSID, cfg.Channel = "airq-test", bssid, 1
	a, err := New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	d := &airDriver{a: a, ack: ack, buf: make([]byte, 0, 2048), echoes: make([][]byte, 1024)}
	for i := range d.echoes {
		d.echoes[i] = make([]byte, 0, 2048)
	}
	d.rt = radiotap.AppendRx(nil, radio.RxInfo{Freq: 2412, Signal: -50, HasSignal: true, Rate: radio.LegacyRate(54000)})
	a.Start(0)
	d.flush()
	return d
}

// flush takes the core's output and returns the echo of every frame sent,
// acknowledged when ack says its receiver does.
func (d *airDriver) flush() {
	d.n = 0
	d.a.Flush(d.now, d)
	d.replaying = true // what the completions release is not echoed again
	for _, e := range d.echoes[:d.n] {
		d.a.HandleRadio(d.now, e)
		d.a.Flush(d.now, d)
	}
	d.replaying = false
}

func (d *airDriver) WriteRadio(frames [][]byte) (int, error) {
	for _, f := range frames {
		n, _, err := radiotap.Parse(f, nil, nil)
		if d.replaying || err != nil || d.n == len(d.echoes) {
			continue
		}
		fr := ieee80211.Frame(f[n:])
		st := radio.TxStatus{Acked: fr.Addr1().IsMulticast() || d.ack(fr.Addr1())}
		if !st.Acked {
			st.Retries = 6
		}
		e := radiotap.AppendEcho(d.echoes[d.n][:0], st)
		d.echoes[d.n] = append(e, fr...)
		d.n++
	}
	return len(frames), nil
}

func (d *airDriver) WriteWired(_ int, frames [][]byte) (int, error) { return len(frames), nil }
func (d *airDriver) Retune(int) (time.Duration, bool)               { return d.now, true }
func (d *airDriver) Event(Event)                                    {}

func (d *airDriver) air(frame []byte) {
	d.a.HandleRadio(d.now, frame)
	d.flush()
}

func (d *airDriver) mgmt(subtype int, from ieee80211.MAC) []byte {
	d.seq++
	b := append(d.buf[:0], d.rt...)
	return ieee80211.AppendMgmtHeader(b, uint8(subtype), bssid, from, bssid, d.seq)
}

// admit sends an authentication and an association request from addr.
func (d *airDriver) admit(addr ieee80211.MAC) {
	d.air(ieee80211.AppendAuth(d.mgmt(ieee80211.SubtypeAuth, addr), 0, 1, 0))
	b := ieee80211.AppendAssocReq(d.mgmt(ieee80211.SubtypeAssocReq, addr), 0x0421, 10)
	b = ieee80211.AppendSSID(b, "airq-test")
	d.air(ieee80211.AppendRates(b, gRates))
}

// tick runs the core's timers up to now+dt, beacon by beacon.
func (d *airDriver) tick(dt time.Duration) {
	end := d.now + dt
	for {
		d.now = max(d.now, min(d.a.Deadline(), end))
		d.a.Tick(d.now)
		d.flush()
		if d.now >= end {
			return
		}
	}
}

func liveHeap() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func floodMAC(i int) ieee80211.MAC {
	return ieee80211.MAC{0x02, 0xfa, byte(i >> 24), byte(i >> 16), byte(i >> 8), byte(i)}
}

const idleStationBudget = 4096 // bytes of live heap per idle station

// TestIdleStationMemory: what an associated station costs beyond the
// core's fixed tables while it carries no traffic: at most 4 KiB, both
// before its first frame (its rate table is built then) and once it has
// gone quiet for IdleRelease (the table is given back).
func TestIdleStationMemory(t *testing.T) {
	const n = 2000
	d := newAirDriver(t, Config{IdleRelease: time.Second, ReplyAirtime: 1}, func(ieee80211.MAC) bool { return true })
	before := liveHeap()
	for i := range n {
		d.now += 2 * time.Millisecond // the reply budget is not the limit
		d.admit(floodMAC(i))
	}
	if d.a.Associated() != n {
		t.Fatalf("%d associated", d.a.Associated())
	}
	idle := liveHeap()
	perIdle := (int64(idle) - int64(before)) / n
	eth := eth(floodMAC(0), host, 0)
	for i := range n {
		m := floodMAC(i)
		copy(eth, m[:])
		d.a.HandleWired(d.now, 0, eth)
		d.flush()
	}
	busy := liveHeap()
	if c := d.a.Counters(); c[counter.RateTablesBuilt] != n || c[counter.WiredSent] != n {
		t.Fatalf("%d rate tables for %d stations, %d frames sent", c[counter.RateTablesBuilt], n, c[counter.WiredSent])
	}
	d.tick(2 * time.Second)
	quiet := liveHeap()
	perQuiet := (int64(quiet) - int64(before)) / n
	t.Logf("live heap per station: %d bytes admitted, %d with a rate table, %d after going quiet; a table entry is %d bytes, allocated with the core",
		perIdle, (int64(busy)-int64(before))/n, perQuiet, unsafe.Sizeof(station{}))
	// Live-heap averages: the collector moves them by a few bytes.
	readmetest.CheckNear(t, `builds its rate table \((\d+,\d+)\s+bytes\)`, float64((int64(busy)-int64(before))/n), 8)
	readmetest.CheckNear(t, `TestIdleStationMemory -v.: (\d+) bytes admitted`, float64(perIdle), 4)
	readmetest.CheckNear(t, `bytes admitted, (\d+) after going quiet`, float64(perQuiet), 4)
	if perIdle > idleStationBudget || perQuiet > idleStationBudget || d.a.Counters()[counter.RateTablesReleased] != n {
		t.Errorf("%d and %d bytes per idle station (want at most %d), %d tables released", perIdle, perQuiet, idleStationBudget, d.a.Counters()[counter.RateTablesReleased])
	}
	runtime.KeepAlive(d)
}

// TestForgedAdmissionFloodKeepsHeapFlat: cycles of 3,000 forged MACs
// authenticating and associating, half of them acknowledging like real
// radios, leave the live heap where the second cycle left it, and never
// an associated station whose response was not acknowledged.
func TestForgedAdmissionFloodKeepsHeapFlat(t *testing.T) {
	acks := func(m ieee80211.MAC) bool { return m[5]&1 == 0 }
	// The whole air for replies, so that the forged stations fill the
	// table and evict each other.
	d := newAirDriver(t, Config{ReplyAirtime: 1}, acks)
	var heap []uint64
	for cycle := range 5 {
		for i := range 3000 {
			d.now += 8 * time.Millisecond
			d.admit(floodMAC(cycle<<16 | i))
			if i%30 == 0 {
				d.tick(0)
			}
		}
		d.tick(10 * time.Second)
		heap = append(heap, liveHeap())
		for slot := range d.a.sta.used() {
			if s := &d.a.sta.slots[slot]; s.State == bss.StateAssociated && !acks(s.Addr) {
				t.Fatalf("cycle %d: %s associated without acknowledging", cycle, s.Addr)
			}
		}
	}
	c := d.a.Counters()
	t.Logf("live heap after each cycle %v; %d associated; counters %+v", heap, d.a.Associated(), c)
	if growth := int64(heap[4]) - int64(heap[1]); growth > int64(heap[1])/50 {
		t.Errorf("live heap grew %d bytes over three cycles (from %d)", growth, heap[1])
	}
	if c[counter.AssocAcked] < 5*1000 || c[counter.AuthNotAcked] < 5*1000 || c[counter.QuietEvicted] == 0 {
		t.Errorf("the flood did not exercise the handshake: %+v", c)
	}
}

// TestForgedAdmissionAllocatesNothing: an authentication and an
// association from a forged MAC, acknowledged or not, cost the core no
// allocation.
func TestForgedAdmissionAllocatesNothing(t *testing.T) {
	d := newAirDriver(t, Config{ReplyAirtime: 1}, func(m ieee80211.MAC) bool { return m[5]&1 == 0 })
	i := 0
	allocs := testing.AllocsPerRun(5000, func() {
		d.now += 2 * time.Millisecond
		d.admit(floodMAC(i))
		i++
		if i%50 == 0 {
			d.tick(0)
		}
	})
	if allocs != 0 {
		t.Errorf("%.2f allocations per forged admission", allocs)
	}
}

// BenchmarkIdleStation admits a table's worth of stations (one op) and
// reports the live heap each costs while idle, beyond the core's fixed
// tables; B/op is what admitting them allocated.
func BenchmarkIdleStation(b *testing.B) {
	b.ReportAllocs()
	var per int64
	for range b.N {
		b.StopTimer()
		d := newAirDriver(b, Config{ReplyAirtime: 1}, func(ieee80211.MAC) bool { return true })
		before := liveHeap()
		b.StartTimer()
		for i := range maxAID {
			d.now += 2 * time.Millisecond
			d.admit(floodMAC(i))
		}
		b.StopTimer()
		per = (int64(liveHeap()) - int64(before)) / maxAID
		runtime.KeepAlive(d)
		b.StartTimer()
	}
	b.ReportMetric(float64(per), "bytes/idle-station")
}

// TestStationDumpPages: a streamed dump of a full table lists what the
// whole dump lists, page by page, and filling a page allocates nothing.
func TestStationDumpPages(t *testing.T) {
	d := newAirDriver(t, Config{ReplyAirtime: 1}, func(ieee80211.MAC) bool { return true })
	for i := range maxAID {
		d.now += 2 * time.Millisecond
		d.admit(floodMAC(i))
	}
	if d.a.Associated() != maxAID {
		t.Fatalf("%d associated", d.a.Associated())
	}
	whole := d.a.Control(d.now, ctl.Request{Op: ctl.OpStationDump}).Stations
	var streamed bytes.Buffer
	err := ctl.WriteStationDump(&streamed, func(p *ctl.StationPage) ctl.Reply {
		return d.a.Control(d.now, ctl.Request{Op: ctl.OpStationDump, Page: p})
	})
	want, _ := (&ctl.Reply{Stations: whole}).Encode()
	if err != nil || !bytes.Equal(streamed.Bytes(), want) {
		t.Fatalf("the streamed dump differs from the whole one (%d stations): %v", len(whole), err)
	}
	p := &ctl.StationPage{Into: make([]ctl.Station, ctl.DumpPageSize)}
	if n := testing.AllocsPerRun(100, func() {
		for p.From = 1; ; p.From = p.Next {
			d.a.Control(d.now, ctl.Request{Op: ctl.OpStationDump, Page: p})
			if p.Next == 0 {
				break
			}
		}
	}); n != 0 {
		t.Errorf("%v allocations to page through %d stations", n, maxAID)
	}
}

// TestSlotMemory: what the core sets aside per station slot at start,
// used or not: the table's entry, the scheduler's queues for the slot and
// its airtime accounting (flows and frames are shared by all). An idle
// station costs this plus what TestIdleStationMemory measures beyond it;
// together they stay within 4 KiB.
func TestSlotMemory(t *testing.T) {
	a, err := New(Config{SSID: "x", BSSID: bssid, Channel: 1})
	if err != nil {
		t.Fatal(err)
	}
	sched := func(n int) uint64 {
		before := liveHeap()
		s, err := txq.New(txq.Config{MaxStations: n, Airtime: a.air, Owner: a})
		if err != nil {
			t.Fatal(err)
		}
		after := liveHeap()
		runtime.KeepAlive(s)
		return after - before
	}
	perQueue := float64(sched(maxAID)-sched(1)) / (maxAID - 1)
	before := liveHeap()
	ids := bss.NewTable(maxAID)
	tab := newStationTable(maxAID, &ids)
	perEntry := float64(liveHeap()-before) / maxAID
	before = liveHeap()
	tr := aql.New(aql.Config{})
	perAQL := float64(liveHeap()-before) / (aql.MaxStation + 1) // its arrays are per slot, beyond a few words
	runtime.KeepAlive(tab)
	runtime.KeepAlive(ids)
	runtime.KeepAlive(tr)
	all := perEntry + perQueue + perAQL
	t.Logf("per slot: %.0f bytes of table entry (a station is %d), %.0f of scheduler queues, %.0f of AQL: %.0f in all",
		perEntry, unsafe.Sizeof(station{}), perQueue, perAQL, all)
	if all > idleStationBudget {
		t.Errorf("%.0f bytes set aside per slot, want at most %d", all, idleStationBudget)
	}
	readmetest.Check(t, `about (\d\.\d) KB per AID slot`, fmt.Sprintf("%.1f", all/1000))
	readmetest.Check(t, `(\d+) bytes of table entry, about (\d\.\d) KB of queues, (\d+) of AQL`,
		fmt.Sprintf("%.0f", perEntry), fmt.Sprintf("%.1f", perQueue/1000), fmt.Sprintf("%.0f", perAQL))
}

// startupHeapMax bounds the live heap a core with the default
// configuration holds after New: its tables, and none of its slab pools'
// 16 MiB, which are made as frames need them.
const startupHeapMax = 7 << 20

// TestStartupHeap holds the core's live heap after start-up, so that the
// collector's first goal (twice the live heap) stays small on a quiet AP.
func TestStartupHeap(t *testing.T) {
	before := liveHeap()
	a, err := New(Config{SSID: "airq-test", BSSID: bssid, Channel: 1})
	if err != nil {
		t.Fatal(err)
	}
	a.Start(0)
	held := int64(liveHeap()) - int64(before)
	t.Logf("live heap after start-up: %d KiB (bound %d KiB); reserve %d KiB", held>>10, startupHeapMax>>10, a.HeapReserve()>>10)
	if held > startupHeapMax {
		t.Errorf("the core holds %d KiB after start-up, want at most %d KiB", held>>10, startupHeapMax>>10)
	}
	runtime.KeepAlive(a)
}

// TestPoolGrowsToItsBound: slabs are made as they are first needed, at
// most n, and taking them again after a put allocates nothing.
func TestPoolGrowsToItsBound(t *testing.T) {
	p := newPoolOf(1000, slabSize)
	if p.unmade() != p.bound() {
		t.Fatalf("%d bytes made before any get", p.bound()-p.unmade())
	}
	var hs []uint32
	for {
		h, ok := p.get()
		if !ok {
			break
		}
		p.slab(h)[0] = byte(h)
		hs = append(hs, h)
	}
	if len(hs) != 1000 || p.unmade() != 0 {
		t.Fatalf("%d slabs, %d bytes unmade", len(hs), p.unmade())
	}
	for _, h := range hs {
		if p.slab(h)[0] != byte(h) || len(p.slab(h)) != slabSize {
			t.Fatalf("slab %d overlaps another", h)
		}
		p.put(h)
	}
	if n := testing.AllocsPerRun(100, func() {
		h, _ := p.get()
		p.put(h)
	}); n != 0 {
		t.Errorf("%v allocations reusing a slab", n)
	}
}
