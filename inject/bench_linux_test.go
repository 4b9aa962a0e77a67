package inject

import (
	"testing"
	"time"

	"github.com/airq/airq/internal/netnstest"
)

// BenchmarkVeth moves 256-byte frames from one Device to another over a veth
// pair, 64 per batch, and reports the receive rate: copied out of the
// receive ring (BenchmarkVeth), read in place from it (BenchmarkVethViews),
// or with recvmmsg (BenchmarkVethRecvmmsg).
func BenchmarkVeth(b *testing.B) { benchVeth(b, Options{}, false) }

func BenchmarkVethViews(b *testing.B) { benchVeth(b, Options{}, true) }

func BenchmarkVethRecvmmsg(b *testing.B) { benchVeth(b, Options{NoRing: true}, false) }

func benchVeth(b *testing.B, opt Options, views bool) {
	netnstest.Enter(b)
	netnstest.IP(b, "link", "add", "air0", "type", "veth", "peer", "name", "air1")
	rx, err := Open("air0", opt)
	if err != nil {
		b.Fatal(err)
	}
	defer rx.Close()
	tx, err := Open("air1", Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer tx.Close()
	netnstest.WaitRunning(b, "air0", "air1")

	out := make([][]byte, MaxBatch)
	for i := range out {
		out[i] = testFrame('b', uint16(i), 256)
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := tx.WriteBatch(out); err != nil {
				return
			}
		}
	}()
	bufs := make([][]byte, MaxBatch)
	for i := range bufs {
		bufs[i] = make([]byte, 2048)
	}
	sizes := make([]int, MaxBatch)
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	read := rx.ReadBatch
	if views {
		read = rx.ReadViews
	}
	for got := 0; got < b.N; {
		n, err := read(bufs, sizes)
		if err != nil {
			b.Fatal(err)
		}
		if views {
			rx.Release(n)
		}
		got += n
	}
	elapsed := time.Since(start)
	b.StopTimer()
	close(stop)
	<-done
	s := rx.Stats()
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "frames/s")
	b.ReportMetric(float64(s.KernelDrops)/float64(max(s.KernelPackets, 1)), "dropfrac")
}
