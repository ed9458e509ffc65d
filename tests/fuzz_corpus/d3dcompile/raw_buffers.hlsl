ByteAddressBuffer input : register(t0);
RWByteAddressBuffer output : register(u0);

