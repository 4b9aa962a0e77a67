package ackmiss_test

import (
	"fmt"

	"github.com/airq/airq/internal/ackmiss"
)

// The core keeps one watch per BSS and feeds it every unicast frame whose
// address 1 is that BSS's BSSID, before its duplicate filter: here a
// station's frame that nobody ACKs, sent four times.
func Example() {
	bssid := [6]byte{0x02, 0, 0, 0, 0, 0x01}
	w := ackmiss.New(ackmiss.Threshold, uint32(bssid[4])<<8|uint32(bssid[5]))
	sta := [6]byte{0x02, 0, 0, 0, 0x01, 0}
	const seqCtl = 42 << 4 // sequence number 42, fragment 0
	for try := range 4 {
		if w.Frame(sta, seqCtl, try > 0) {
			fmt.Println("unanswered: does the hardware ACK", fmt.Sprintf("%x?", bssid))
		}
	}
	fmt.Printf("%+v\n", w.Counts())
	// Output:
	// unanswered: does the hardware ACK 020000000001?
	// {Frames:4 Retries:3 Unanswered:1}
}
