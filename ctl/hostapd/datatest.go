package hostapd

import (
	"encoding/binary"
	"strconv"
	"strings"

	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
)

// hostapd's testing commands (hostap's tests/hwsim checks data paths with
// them): DATA_TEST_CONFIG 0|1 [ifname=IF] opens or closes a test socket on
// the wired side, DATA_TEST_TX DST SRC TOS [len=N] sends a test frame from
// it, and every test frame it receives is reported as DATA-TEST-RX DST SRC
// [len=N]. GET_PMK ADDR returns a station's PMK in hex. The daemon serves
// them only with its testing flag.

// The test frame: an IPv4 header (protocol 1, 192.168.1.1 to
// 192.168.1.2) and a payload counting up from 0. hostapd and
// wpa_supplicant cap the whole Ethernet frame at HWSIM_PACKETLEN, 1500
// bytes, so the IP packet is 1486 bytes by default (HWSIM_IP_LEN): the
// peer drops a longer frame unseen and reports any other length as len=N.
const (
	DataTestFrameLen = 1500
	DataTestIPLen    = DataTestFrameLen - ethHeaderLen
	ethHeaderLen     = 14
	dataTestMinIPLen = 20
	etherTypeIPv4    = 0x0800
)

// parseDataTestConfig reads DATA_TEST_CONFIG's arguments.
func parseDataTestConfig(rest string) Command {
	c := Command{Kind: DataTestConfig, ProbeEvents: -1, On: atoi(rest) != 0}
	if _, v, ok := strings.Cut(rest, " ifname="); ok {
		c.Value = v
	}
	return c
}

// parseDataTestTx reads "DST SRC TOS [len=N]" (hwaddr_aton2 addresses,
// TOS in C's strtol base 0).
func parseDataTestTx(rest string) (Command, error) {
	c := Command{Kind: DataTestTx, ProbeEvents: -1, Level: DataTestIPLen}
	f := strings.Fields(rest)
	if len(f) < 3 {
		return Command{}, ErrFail
	}
	var err1, err2 error
	c.Addr, err1 = ieee80211.ParseMAC(f[0])
	c.Src, err2 = ieee80211.ParseMAC(f[1])
	tos, err3 := strconv.ParseUint(f[2], 0, 8)
	if err1 != nil || err2 != nil || err3 != nil {
		return Command{}, ErrFail
	}
	c.Reason = uint16(tos)
	if _, v, ok := strings.Cut(rest, " len="); ok {
		n := atoi(v)
		if n < dataTestMinIPLen || n > DataTestIPLen {
			return Command{}, ErrFail
		}
		c.Level = n
	}
	return c, nil
}

// AppendDataTestFrame appends DATA_TEST_TX's Ethernet frame: to dst from
// src, IPv4 of ipLen bytes with the TOS given.
func AppendDataTestFrame(b []byte, dst, src ieee80211.MAC, tos uint8, ipLen int) []byte {
	b = append(b, dst[:]...)
	b = append(b, src[:]...)
	b = binary.BigEndian.AppendUint16(b, etherTypeIPv4)
	ip := len(b)
	b = append(b, 0x45, tos)
	b = binary.BigEndian.AppendUint16(b, uint16(ipLen))
	b = append(b, 0, 0, 0, 0, 64, 1, 0, 0, 192, 168, 1, 1, 192, 168, 1, 2)
	binary.BigEndian.PutUint16(b[ip+10:], ipChecksum(b[ip:ip+20]))
	for i := range ipLen - 20 {
		b = append(b, byte(i))
	}
	return b
}

func ipChecksum(h []byte) uint16 {
	var sum uint32
	for i := 0; i+1 < len(h); i += 2 {
		sum += uint32(binary.BigEndian.Uint16(h[i:]))
	}
	for sum > 0xffff {
		sum = sum&0xffff + sum>>16
	}
	return ^uint16(sum)
}

// AppendDataTestRx appends the DATA-TEST-RX event for a received Ethernet
// frame if it is a test frame (hostapd_data_test_rx's checks), and reports
// whether it was.
func AppendDataTestRx(b, frame []byte) ([]byte, bool) {
	if len(frame) < ethHeaderLen+dataTestMinIPLen || len(frame) > DataTestFrameLen {
		return b, false
	}
	ip := frame[ethHeaderLen:]
	ipLen := int(binary.BigEndian.Uint16(ip[2:]))
	if ip[0] != 0x45 || ipLen > DataTestIPLen || ipLen < dataTestMinIPLen || len(ip) < ipLen {
		return b, false
	}
	for i, c := range ip[20:ipLen] {
		if c != byte(i) {
			return b, false
		}
	}
	dst, src := ctl.MAC(frame[0:6]), ctl.MAC(frame[6:12])
	b = AppendEvent(b, "DATA-TEST-RX", &dst)
	b = append(b, ' ')
	b = append(b, src.String()...)
	if ipLen != DataTestIPLen {
		b = append(b, " len="...)
		b = strconv.AppendInt(b, int64(ipLen), 10)
	}
	return b, true
}
