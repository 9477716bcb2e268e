export declare function prettyByte(byte: number): string;
