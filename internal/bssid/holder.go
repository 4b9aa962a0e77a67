package bssid

import "strconv"

// HolderName is the name of the interface that holds BSS n's BSSID for
// the hardware's ACKs (n counts from 1 in configuration order; the first
// BSS's is the monitor, ifname itself): "mon0.2" for the second BSS of
// monitor mon0. Here so that the radio's bring-up, which creates the
// interface, and the configuration, which shows it, name it alike.
func HolderName(ifname string, n int) string {
	return ifname + "." + strconv.Itoa(n)
}
