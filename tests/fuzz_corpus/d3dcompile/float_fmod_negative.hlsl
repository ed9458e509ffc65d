RWStructuredBuffer<float> output : register(u0);
cbuffer C : register(b0) { float a; float b; };

