package shell

import (
	"bufio"
	"bytes"
	"net"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/internal/readmetest"
	"github.com/airq/airq/radio"
)

// echoDriver hands every frame the core sends back as an acknowledged
// echo: each station it admits is a real radio.
type echoDriver struct{ echoes [][]byte }

func (d *echoDriver) WriteRadio(frames [][]byte) (int, error) {
	for _, f := range frames {
		if n, _, err := radiotap.Parse(f, nil, nil); err == nil {
			d.echoes = append(d.echoes, append(radiotap.AppendEcho(nil, radio.TxStatus{Acked: true}), f[n:]...))
		}
	}
	return len(frames), nil
}
func (d *echoDriver) WriteWired(_ int, frames [][]byte) (int, error) { return len(frames), nil }
func (d *echoDriver) Retune(int) (time.Duration, bool)               { return 0, true }
func (d *echoDriver) Event(ap.Event)                                 {}

// fullCore returns a core with n associated stations and its time.
func fullCore(tb testing.TB, n int) (*ap.AP, time.Duration) {
	tb.Helper()
	core, err := ap.New(ap.Config{SSID: "full", BSSID: bssid, Channel: 1, ReplyAirtime: 1})
	if err != nil {
		tb.Fatal(err)
	}
	var now time.Duration
	core.Start(now)
	core.Flush(now, &echoDriver{})
	for i := range n {
		now += 2 * time.Millisecond
		// Short preamble and slot time, 802.11b and OFDM rates.
		associate(core, now, ieee80211.MAC{2, 0xd0, 0, 0, byte(i >> 8), byte(i)}, 0x0421, []byte{0x82, 0x84, 0x8b, 0x96, 12, 24, 48, 108})
	}
	if core.Associated() != n {
		tb.Fatalf("%d of %d stations associated", core.Associated(), n)
	}
	return core, now
}

// associate has station from, of capability capab and rates, authenticate
// with fullCore's BSS and associate, each frame the core sends
// acknowledged.
func associate(core *ap.AP, now time.Duration, from ieee80211.MAC, capab uint16, rates []byte) {
	d := &echoDriver{}
	air := func(f []byte) {
		core.HandleRadio(now, f)
		core.Flush(now, d)
		for len(d.echoes) > 0 {
			e := d.echoes
			d.echoes = nil
			for _, f := range e {
				core.HandleRadio(now, f)
				core.Flush(now, d)
			}
		}
	}
	rt := radiotap.AppendRx(nil, radio.RxInfo{Freq: 2412, Signal: -50, HasSignal: true})
	air(ieee80211.AppendAuth(ieee80211.AppendMgmtHeader(append([]byte(nil), rt...), ieee80211.SubtypeAuth, bssid, from, bssid, 0), 0, 1, 0))
	b := ieee80211.AppendAssocReq(ieee80211.AppendMgmtHeader(append([]byte(nil), rt...), ieee80211.SubtypeAssocReq, bssid, from, bssid, 1), capab, 10)
	air(ieee80211.AppendRates(ieee80211.AppendSSID(b, "full"), rates))
}

// dumpAlloc serves a full table's core on a socket and returns the bytes
// the process allocated for one station dump read raw off the socket, and
// the number of station sections it held.
func dumpAlloc(tb testing.TB, core *ap.AP, now time.Duration) (bytes uint64, stations int) {
	tb.Helper()
	srv, err := ListenControl(filepath.Join(tb.TempDir(), "airqd.sock"))
	if err != nil {
		tb.Fatal(err)
	}
	stop := serveCalls(srv, func(call *ControlCall) {
		call.Serve(core, now, func(r ctl.Request) ctl.Reply { return core.Control(now, r) })
	})
	defer stop()
	defer srv.Close()
	conn, err := net.Dial("unix", srv.Addr())
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close()
	if _, err := ctl.NewClient(conn).Do(ctl.Request{Op: ctl.OpStatus}); err != nil { // the connection is served
		tb.Fatal(err)
	}
	r := bufio.NewReaderSize(conn, ctl.MaxReplyLine)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	conn.Write([]byte("station dump\n"))
	for errno := false; ; {
		line, err := r.ReadSlice('\n')
		if err != nil {
			tb.Fatal(err)
		}
		switch {
		case string(line) == "section=station\n":
			stations++
		case len(line) > 6 && string(line[:6]) == "errno=":
			errno = true
		case errno && len(line) == 1:
			runtime.ReadMemStats(&ms)
			return ms.TotalAlloc - before, stations
		}
	}
}

// TestStationDumpStreams: a dump of a full table (2,007 stations) reaches
// the client over the socket, as the reply built whole would, and the
// daemon allocates at most 1 MiB for it (the whole reply took several).
func TestStationDumpStreams(t *testing.T) {
	noLeaks(t)
	core, now := fullCore(t, 2007)
	alloc, n := dumpAlloc(t, core, now)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	whole := core.Control(now, ctl.Request{Op: ctl.OpStationDump})
	text, _ := whole.Encode()
	runtime.ReadMemStats(&ms)
	t.Logf("a dump of %d stations allocated %d KiB streamed, %d KiB built whole (its text is %d KiB)", n, alloc>>10,
		(ms.TotalAlloc-before)>>10, len(text)>>10)
	if n != 2007 || alloc > 1<<20 {
		t.Errorf("%d stations dumped, %d bytes allocated; want 2007 within 1 MiB", n, alloc)
	}
	// What the socket's goroutines and the runtime allocate meanwhile moves
	// the figures by a few KiB (a few tens under -race on a loaded host):
	// 16 KiB on the streamed figure, 1 % on the whole reply's.
	wholeKiB := float64((ms.TotalAlloc - before) >> 10)
	readmetest.CheckNear(t, `2,007 stations cost (\d+) KiB of allocation`, float64(alloc>>10), 16)
	readmetest.CheckNear(t, `instead of the\s+(\d+,\d+) KiB the reply built whole`, wholeKiB, wholeKiB/100)
	// The client's decoder reads the stream as any reply.
	srv, _ := ListenControl(filepath.Join(t.TempDir(), "b.sock"))
	stop := serveCalls(srv, func(call *ControlCall) {
		call.Serve(core, now, func(r ctl.Request) ctl.Reply { return core.Control(now, r) })
	})
	c, _ := dial(t, srv.Addr())
	r, err := c.Do(ctl.Request{Op: ctl.OpStationDump})
	want, _ := (&ctl.Reply{Stations: whole.Stations}).Encode()
	got, _ := r.Encode()
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("decoded dump: %d stations, %v; differs from the whole reply", len(r.Stations), err)
	}
	srv.Close()
	stop()
}

// BenchmarkStationDump2007 reports what one streamed dump of a full table
// allocates (B/op counts the client's reading too, which allocates
// nothing).
func BenchmarkStationDump2007(b *testing.B) {
	core, now := fullCore(b, 2007)
	var per uint64
	for range b.N {
		a, _ := dumpAlloc(b, core, now)
		per = a
	}
	b.ReportMetric(float64(per)/1024, "KiB/dump")
}
