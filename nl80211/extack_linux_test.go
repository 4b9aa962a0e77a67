package nl80211

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/mdlayher/genetlink"
	"github.com/mdlayher/netlink"
	"github.com/mdlayher/netlink/nltest"
	"golang.org/x/sys/unix"
)

// TestExtendedAck checks that a kernel error with an extended
// acknowledgement surfaces with its errno and message. Hand-built as a capped
// acknowledgement (NETLINK_CAP_ACK); TestRecordedExtendedAck replays the
// kernel's uncapped ones.
func TestExtendedAck(t *testing.T) {
	nc := nltest.Dial(func(reqs []netlink.Message) ([]netlink.Message, error) {
		req := reqs[0]
		if req.Header.Type == unix.GENL_ID_CTRL {
			return familyReply(t, req), nil
		}
		return extAckError(req, unix.EINVAL, "invalid channel definition"), nil
	})
	c, err := NewConn(genetlink.NewConn(nc))
	if err != nil {
		t.Fatalf("NewConn: %v", err)
	}
	defer c.Close()

	err = c.SetChannel(3, Channel{Freq: 5180, Width: Width80, Center1: 5210})
	if !errors.Is(err, unix.EINVAL) {
		t.Fatalf("err = %v, want EINVAL", err)
	}
	want := "nl80211: set channel 5180 MHz 80 MHz on interface 3: invalid argument: invalid channel definition"
	if err.Error() != want {
		t.Errorf("error text:\n got %q\nwant %q", err.Error(), want)
	}
	var ne *Error
	if !errors.As(err, &ne) || ne.Message != "invalid channel definition" {
		t.Errorf("Message = %q", ne.Message)
	}
}

// familyReply answers CTRL_CMD_GETFAMILY with testFamily.
func familyReply(t *testing.T, req netlink.Message) []netlink.Message {
	g := genetlink.Message{
		Header: genetlink.Header{Command: unix.CTRL_CMD_NEWFAMILY, Version: 1},
		Data: encode(t, func(ae *netlink.AttributeEncoder) {
			ae.Uint16(unix.CTRL_ATTR_FAMILY_ID, testFamily.ID)
			ae.String(unix.CTRL_ATTR_FAMILY_NAME, testFamily.Name)
			ae.Uint32(unix.CTRL_ATTR_VERSION, uint32(testFamily.Version))
		}),
	}
	b, err := g.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return []netlink.Message{{Header: netlink.Header{Type: req.Header.Type, Sequence: req.Header.Sequence, PID: req.Header.PID}, Data: b}}
}

// extAckError builds NLMSG_ERROR with a capped copy of the request header and
// an NLMSGERR_ATTR_MSG attribute, as the kernel sends with NETLINK_EXT_ACK.
func extAckError(req netlink.Message, errno unix.Errno, msg string) []netlink.Message {
	data := binary.NativeEndian.AppendUint32(nil, uint32(-int32(errno)))
	var hdr [16]byte
	binary.NativeEndian.PutUint32(hdr[0:], 16) // capped: header only
	binary.NativeEndian.PutUint16(hdr[4:], uint16(req.Header.Type))
	binary.NativeEndian.PutUint32(hdr[8:], req.Header.Sequence)
	data = append(data, hdr[:]...)
	ae := netlink.NewAttributeEncoder()
	ae.String(unix.NLMSGERR_ATTR_MSG, msg)
	tlv, _ := ae.Encode()
	data = append(data, tlv...)
	return []netlink.Message{{
		Header: netlink.Header{Type: netlink.Error, Flags: netlink.Capped | netlink.AcknowledgeTLVs,
			Sequence: req.Header.Sequence, PID: req.Header.PID},
		Data: data,
	}}
}
