// Package pcap writes radio captures in the classic pcap format (not
// pcapng), link type radiotap (127): a 24-byte file header, then a 16-byte
// header before each frame. Wireshark, tcpdump and gopacket's pcapgo read
// it. Frames keep their radiotap header: received ones as mac80211 wrote
// it, TX-status echoes with mac80211's TX-status header, sent ones with
// airq's injection header, so the rate and TX flags of each frame show.
//
// Writer bounds the file and counts what it drops; Tap puts a Writer
// around a radio.Device. The package takes its output and its clock as
// arguments: the daemon passes a file and the wall clock, the simulated
// radio its virtual time.
package pcap
