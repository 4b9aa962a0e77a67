package inject

import (
	"bytes"
	"testing"

	"golang.org/x/sys/unix"
)

// TestCollectDropsOutgoing checks the defensive filter: outgoing copies that
// reach the socket despite PACKET_IGNORE_OUTGOING are removed and the frames
// after them moved down, truncation is counted.
func TestCollectDropsOutgoing(t *testing.T) {
	var r rxBatch
	r.init()
	var c counters
	bufs := [][]byte{make([]byte, 8), make([]byte, 8), make([]byte, 8), make([]byte, 8)}
	sizes := make([]int, 4)
	r.start(bufs, sizes, &c)
	fill := func(i int, pkttype uint8, payload string, full int) {
		copy(bufs[i], payload)
		r.addrs[i].Pkttype = pkttype
		r.hdrs[i].Len = uint32(full)
	}
	fill(0, unix.PACKET_OUTGOING, "out0", 4)
	fill(1, unix.PACKET_HOST, "in1", 3)
	fill(2, unix.PACKET_OUTGOING, "out2", 4)
	fill(3, unix.PACKET_OTHERHOST, "in3xxxxx", 20)
	r.hdrs[3].Hdr.Flags = unix.MSG_TRUNC

	k := r.collect(4)
	r.finish()
	if k != 2 {
		t.Fatalf("kept %d frames, want 2", k)
	}
	if got := bufs[0][:sizes[0]]; !bytes.Equal(got, []byte("in1")) {
		t.Errorf("frame 0 = %q, want in1", got)
	}
	if got := bufs[1][:sizes[1]]; !bytes.Equal(got, []byte("in3xxxxx")) {
		t.Errorf("frame 1 = %q, want the truncated in3xxxxx", got)
	}
	if c.rxOutgoing.Load() != 2 || c.rxTruncated.Load() != 1 || c.rxFrames.Load() != 2 || c.rxBytes.Load() != 11 {
		t.Errorf("counters: outgoing %d truncated %d frames %d bytes %d",
			c.rxOutgoing.Load(), c.rxTruncated.Load(), c.rxFrames.Load(), c.rxBytes.Load())
	}
}
