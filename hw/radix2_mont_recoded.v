// Modified radix-2 Montgomery multiplier with the multiplier recoded to an even number
// (paper 004 §4 and §5; the model is modred_research::radix2_model, Design::Recoded).
//
// Computes S1 + S2 = A·B·2^(-(K+1)) mod N (+ 0 or N, below 2N, no final subtraction)
// for carry-save operands A = A1 + A2 < N, B = B1 + B2 < N, an odd K-bit N and the
// correction input a = A·2^(-K) mod N, in K + 2 clock cycles from the edge that samples
// `start`: one load/clear cycle, K loop cycles and one correction cycle.
//   load:   odd = B1_0 ^ B2_0; if odd, x1.1 = make_even(B1), x1.2 = make_even(B2)
//   loop:   q = S1_0 ^ S2_0;              S = (S1 + S2 + A_i·x1.1 + A_i·x1.2 + q·N) / 2
//   last:   q = S1_0 ^ S2_0 ^ odd·a_0;    S = (S1 + S2 + odd·a + q·N) / 2
// The same 5-to-2 adder serves both, with a multiplexer on its A_i·x1.1 input. The
// last cycle's odd·a_0 comes from a flip-flop (qfix, set when the loop ends), so q is a
// 3-input XOR of flip-flops in every cycle; the conventional design's q needs
// A_i·(B1_0 ^ B2_0) first.
module radix2_mont_recoded #(parameter K = 16) (
    input  wire         clk,
    input  wire         start,
    input  wire [K-1:0] a1,
    input  wire [K-1:0] a2,
    input  wire [K-1:0] b1,
    input  wire [K-1:0] b2,
    input  wire [K-1:0] n,
    input  wire [K-1:0] corr,
    output reg          done,
    output wire [K:0]   s1_out,
    output wire [K:0]   s2_out
);
    localparam W = K + 3;
    localparam CW = $clog2(K + 1);

    reg [W-1:0] s1, s2, b1r, b2r, nr, ar;
    reg [K-1:0] a1r, a2r;
    reg         ai, ac;
    reg         odd, busy, last;
    reg         qfix;                // last·odd·a_0, registered: q's third input
    reg [CW-1:0] cnt;

    wire         oddb = b1[0] ^ b2[0];
    wire [W-1:0] x1 = last ? ({W{odd}} & ar) : ({W{ai}} & b1r);
    wire [W-1:0] x2 = last ? {W{1'b0}} : ({W{ai}} & b2r);
    wire         q  = s1[0] ^ s2[0] ^ qfix;
    wire [W-1:0] qn = {W{q}} & nr;
    wire [W-1:0] u  = qn ^ s1 ^ s2;
    wire [W:0]   cu = {(qn & s1) | (qn & s2) | (s1 & s2), 1'b0};
    wire [W-1:0] v  = u ^ cu[W-1:0] ^ x1;
    wire [W:0]   cv = {(u & cu[W-1:0]) | (u & x1) | (cu[W-1:0] & x1), 1'b0};
    wire [W-1:0] t  = v ^ cv[W-1:0] ^ x2;
    wire [W:0]   ct = {(v & cv[W-1:0]) | (v & x2) | (cv[W-1:0] & x2), 1'b0};

    assign s1_out = s1[K:0];
    assign s2_out = s2[K:0];

    always @(posedge clk) begin
        done <= 1'b0;
        if (start) begin
            s1  <= {W{1'b0}};
            s2  <= {W{1'b0}};
            odd <= oddb;
            b1r <= {{(W-K){1'b0}}, b1[K-1:1], b1[0] & ~oddb};
            b2r <= {{(W-K){1'b0}}, b2[K-1:1], b2[0] & ~oddb};
            nr  <= {{(W-K){1'b0}}, n};
            ar  <= {{(W-K){1'b0}}, corr};
            {ac, ai} <= a1[0] + a2[0];
            a1r <= a1 >> 1;
            a2r <= a2 >> 1;
            cnt <= {CW{1'b0}};
            busy <= 1'b1;
            last <= 1'b0;
            qfix <= 1'b0;
        end else if (busy) begin
            s1 <= {1'b0, t[W-1:1]};
            s2 <= ct[W:1];
            {ac, ai} <= a1r[0] + a2r[0] + ac;
            a1r <= a1r >> 1;
            a2r <= a2r >> 1;
            cnt <= cnt + 1'b1;
            if (last) begin
                busy <= 1'b0;
                last <= 1'b0;
                qfix <= 1'b0;
                done <= 1'b1;
            end else if (cnt == K - 1) begin
                last <= 1'b1;
                qfix <= odd & ar[0];
            end
        end
    end
endmodule
