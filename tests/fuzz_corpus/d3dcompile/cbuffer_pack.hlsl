cbuffer C : register(b0) { float a; float b[2]; float c; };
RWStructuredBuffer<float> o : register(u0);
[numthreads(1, 1, 1)] void main() { o[0] = a + b[1] + c; }
