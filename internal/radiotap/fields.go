package radiotap

// field is the alignment and size of one radiotap-namespace field. Alignment
// is relative to the start of the header, not to memory.
type field struct{ align, size uint8 }

// fields lists what the kernel's iterator knows (net/wireless/radiotap.c).
// A present field with size 0 is one we cannot step over: parsing stops there,
// as the kernel does, because everything after it would be misread.
var fields = [32]field{
	TSFT:            {8, 8},
	Flags:           {1, 1},
	Rate:            {1, 1},
	Channel:         {2, 4},
	FHSS:            {2, 2},
	DBMAntSignal:    {1, 1},
	DBMAntNoise:     {1, 1},
	LockQuality:     {2, 2},
	TxAttenuation:   {2, 2},
	DBTxAttenuation: {2, 2},
	DBMTxPower:      {1, 1},
	Antenna:         {1, 1},
	DBAntSignal:     {1, 1},
	DBAntNoise:      {1, 1},
	RxFlags:         {2, 2},
	TxFlags:         {2, 2},
	RTSRetries:      {1, 1},
	DataRetries:     {1, 1},
	XChannel:        {4, 8},
	MCS:             {1, 3},
	AMPDUStatus:     {4, 8},
	VHT:             {2, 12},
	Timestamp:       {8, 12},
	HE:              {2, 12},
	HEMU:            {2, 12},
	ZeroLenPSDU:     {1, 1},
	LSIG:            {2, 4},
}

// align rounds off up to a multiple of a (a power of two).
func align(off, a int) int { return (off + a - 1) &^ (a - 1) }
