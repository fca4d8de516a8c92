interface InstructedCell {
  type: string;
  label: string;
  text: string;
  options?: string[];
  maxLength?: number;
  checkbox_details?: { text: string; selected: boolean }[];
}

export function readBack(cell: Pick<InstructedCell, 'type' | 'text' | 'checkbox_details'>): string;
export function instructionsFor(cells: InstructedCell[], normalizeLabel: (label: string) => string): { text: string; expected: Map<number, string> };
