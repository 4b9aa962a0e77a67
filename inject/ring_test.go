package inject

import (
	"encoding/binary"
	"testing"
)

// fakeSlot writes a slot header as the kernel would: status, wire length,
// snap length, the frame's offset and the packet type, then the payload.
func fakeSlot(slot []byte, status uint32, wire uint32, mac uint16, pkttype uint8, payload []byte) {
	ne := binary.NativeEndian
	ne.PutUint32(slot[slotLen:], wire)
	ne.PutUint32(slot[slotSnaplen:], uint32(len(payload)))
	ne.PutUint16(slot[slotMac:], mac)
	slot[slotPkttype] = pkttype
	copy(slot[mac:], payload)
	ne.PutUint32(slot[slotStatus:], status)
}

func TestSlotFrame(t *testing.T) {
	slot := make([]byte, 128)
	tests := []struct {
		name      string
		wire      uint32
		mac       uint16
		snap      int
		cut, ok   bool
		wantBytes int
	}{
		{"whole", 20, 64, 20, false, true, 20},
		{"echo cut by the filter", 1500, 64, 40, false, true, 40},
		{"cut by the slot", 1500, 64, 64, true, true, 64},
		{"fills the slot exactly", 64, 64, 64, false, true, 64},
		{"offset inside the header", 20, slotHdrLen - 1, 20, false, false, 0},
		{"past the slot", 200, 64, 65, false, false, 0},
	}
	for _, tt := range tests {
		p := make([]byte, tt.snap)
		for i := range p {
			p[i] = byte(i)
		}
		clear(slot)
		if int(tt.mac)+tt.snap <= len(slot) {
			fakeSlot(slot, statusUser, tt.wire, tt.mac, 3, p)
		} else {
			binary.NativeEndian.PutUint16(slot[slotMac:], tt.mac)
			binary.NativeEndian.PutUint32(slot[slotSnaplen:], uint32(tt.snap))
		}
		frame, pkttype, cut, ok := slotFrame(slot)
		if ok != tt.ok || cut != tt.cut || len(frame) != tt.wantBytes {
			t.Errorf("%s: %d bytes, cut %v, ok %v; want %d, %v, %v", tt.name, len(frame), cut, ok, tt.wantBytes, tt.cut, tt.ok)
			continue
		}
		if ok && (pkttype != 3 || cap(frame) != len(frame) || (len(frame) > 1 && frame[1] != 1)) {
			t.Errorf("%s: pkttype %d, cap %d, frame %x", tt.name, pkttype, cap(frame), frame)
		}
	}
	if _, _, _, ok := slotFrame(slot[:slotHdrLen-1]); ok {
		t.Error("a slot shorter than the header parsed")
	}
}

// FuzzSlotFrame: whatever the header says, the frame lies inside the slot,
// after the header, and its capacity ends with it.
func FuzzSlotFrame(f *testing.F) {
	seed := make([]byte, 128)
	fakeSlot(seed, statusUser, 1500, 64, 0, make([]byte, 64))
	f.Add(seed)
	f.Add(make([]byte, slotHdrLen))
	f.Add(seed[:70])
	f.Fuzz(func(t *testing.T, slot []byte) {
		frame, _, cut, ok := slotFrame(slot)
		if !ok {
			return
		}
		mac := int(binary.NativeEndian.Uint16(slot[slotMac:]))
		if mac < slotHdrLen || mac+len(frame) > len(slot) || cap(frame) != len(frame) {
			t.Fatalf("frame of %d bytes at %d in a %d-byte slot, cap %d", len(frame), mac, len(slot), cap(frame))
		}
		if len(frame) > 0 && &frame[0] != &slot[mac] {
			t.Fatal("frame does not start at the header's offset")
		}
		if cut && mac+len(frame) != len(slot) {
			t.Fatal("cut frame does not end the slot")
		}
	})
}
