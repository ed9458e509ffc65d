cbuffer A : register(b0) { uint scale; uint bias; };
cbuffer B : register(b3, space1) { uint unused0; uint add; float fscale; int negative; };
RWStructuredBuffer<uint> out_u : register(u0);
RWStructuredBuffer<float> out_f : register(u1);
RWStructuredBuffer<int> out_i : register(u2);

